/** A static file server on 127.0.0.1 for browser tests: the files of one folder, nothing else. */

const _TYPES: Record<string, string> = {
  html: "text/html; charset=utf-8",
  json: "application/json",
  js: "text/javascript",
  png: "image/png",
  svg: "image/svg+xml",
};

/** Serve `dir` on an ephemeral port; `url` has no trailing slash. */
export function serveDir(options: { dir: string }): { url: string; close: () => Promise<void> } {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const name = decodeURIComponent(new URL(req.url).pathname).replace(/^\/+/, "");
    if (name.includes("..")) return new Response("no", { status: 403 });
    try {
      const body = await Deno.readFile(`${options.dir}/${name || "index.html"}`);
      const type = _TYPES[name.split(".").pop() ?? ""] ?? "application/octet-stream";
      return new Response(body, { headers: { "content-type": type } });
    } catch {
      return new Response("not found", { status: 404 });
    }
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}
