/** Worker: scan one byte range of a JSONL file and hand the result back through shared memory. */
import { _pack } from "./_scan_jsonl.ts";
import { _scanRange } from "./_scan_range.ts";

interface _Job {
  path: string;
  keyColumns: string[];
  begin: number;
  end: number;
  /** Int32 state (0 working, 1 result sized, 2 result written, -1 failed) and result size. */
  control: SharedArrayBuffer;
}

let packed: { size: number; write: (into: SharedArrayBuffer) => void } | null = null;
let control: Int32Array;

// The host thread is blocked in Atomics.wait: it answers the size with a buffer to fill.
self.onmessage = (e: MessageEvent) => {
  try {
    if (e.data.result) {
      packed!.write(e.data.result);
      _signal(2);
      self.close();
      return;
    }
    const job = e.data as _Job;
    control = new Int32Array(job.control);
    packed = _pack(_scanRange(job.path, job.keyColumns, job.begin, job.end));
    control[1] = packed.size;
    _signal(1);
  } catch (err) {
    console.error(`summarize scan worker: ${(err as Error).message}`);
    _signal(-1);
  }
};

function _signal(state: number) {
  Atomics.store(control, 0, state);
  Atomics.notify(control, 0);
}
