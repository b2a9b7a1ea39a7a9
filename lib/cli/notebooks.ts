/**
 * `deno task notebooks`: execute every notebook headless through Jupyter with the Deno kernel
 * (installing the kernelspec when absent); exits non-zero on the first cell error.
 */
import { runCli } from "./cli_error.ts";

async function _run(cmd: string, args: string[], env: Record<string, string> = {}) {
  const out = await new Deno.Command(cmd, { args, env, stdout: "piped", stderr: "piped" })
    .output();
  return {
    ok: out.success,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
  };
}

/** True when `jupyter nbconvert` can run here. */
export async function jupyterAvailable(): Promise<boolean> {
  try {
    return (await _run("jupyter", ["nbconvert", "--version"])).ok;
  } catch {
    return false;
  }
}

async function main(): Promise<void> {
  if (!await jupyterAvailable()) {
    throw new Error(
      "jupyter nbconvert not found: apt-get install -y jupyter-nbconvert python3-nbclient python3-ipykernel",
    );
  }
  // `jupyter kernelspec` needs jupyter-client's CLI, often absent: look in the data dirs instead.
  const paths = await _run("jupyter", ["--paths", "--json"]);
  const dataDirs: string[] = paths.ok ? JSON.parse(paths.stdout).data ?? [] : [];
  const hasKernel = dataDirs.some((d) => {
    try {
      return Deno.statSync(`${d}/kernels/deno/kernel.json`).isFile;
    } catch {
      return false;
    }
  });
  if (!hasKernel) {
    console.log("Installing the Deno kernelspec (deno jupyter --install)");
    const install = await _run(Deno.execPath(), ["jupyter", "--install"]);
    if (!install.ok) throw new Error(`deno jupyter --install failed: ${install.stderr}`);
  }
  const dir = new URL("../../notebooks/", import.meta.url).pathname;
  const only = Deno.args;
  const names = [...Deno.readDirSync(dir)].map((e) => e.name)
    .filter((n) => n.endsWith(".ipynb") && (only.length === 0 || only.some((o) => n.includes(o))))
    .sort();
  const outDir = await Deno.makeTempDir({ prefix: "memgauge-notebooks-" });
  const env = { MEMGAUGE_N: Deno.env.get("MEMGAUGE_N") ?? "8" };
  let failed = 0;
  for (const name of names) {
    const started = performance.now();
    const result = await _run("jupyter", [
      "nbconvert",
      "--to",
      "notebook",
      "--execute",
      "--ExecutePreprocessor.kernel_name=deno",
      "--ExecutePreprocessor.timeout=600",
      "--output-dir",
      outDir,
      `${dir}${name}`,
    ], env);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    if (result.ok) console.log(`ok     ${name} (${seconds} s)`);
    else {
      failed++;
      console.log(
        `FAILED ${name} (${seconds} s)\n${result.stderr.split("\n").slice(-40).join("\n")}`,
      );
    }
  }
  if (failed > 0) throw new Error(`${failed} of ${names.length} notebooks failed`);
  console.log(`All ${names.length} notebooks ran without a cell error (outputs in ${outDir}).`);
}

if (import.meta.main) await runCli("notebooks", main);
