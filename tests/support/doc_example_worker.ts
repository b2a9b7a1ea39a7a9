/**
 * Runs one doc example in a fresh isolate (a Web Worker: no subprocess), for the examples whose
 * result in the shared isolate of `tests/doc_examples_test.ts` may come from another example's
 * leftovers. Posts `{ ok: true }` or `{ ok: false, error }`.
 */
/// <reference lib="deno.worker" />
self.onmessage = async (e: MessageEvent<{ href: string }>) => {
  try {
    await import(e.data.href);
    self.postMessage({ ok: true });
  } catch (error) {
    self.postMessage({ ok: false, error: (error as Error)?.stack ?? String(error) });
  }
  self.close();
};
