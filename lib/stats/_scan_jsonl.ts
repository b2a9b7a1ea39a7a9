/** A JSONL scanner that reads only the columns a summary needs, straight into coded columns. */
import { _Interner, type _TrialColumns } from "./_trial_columns.ts";
import { _ByteInterner, type _RawColumn, type _ScanPart, _scanRange } from "./_scan_range.ts";

/** Files smaller than this are scanned on the calling thread alone. */
const _SPLIT_BYTES = 16 << 20;

/** A line the scanner found invalid, for the caller to explain with the zod schema. */
export class _BadLine extends Error {
  constructor(readonly line: number, readonly column: string) {
    super(`line ${line} lacks or misstates required column "${column}"`);
  }
}

/** Options of {@link _scanJsonl}. */
export interface _ScanOptions {
  /**
   * Byte offsets to split the file at; each moves to the start of the next line. Default: the
   * middle, for files of 16 MiB or more on a machine with two or more cores, else no split.
   */
  splits?: readonly number[];
  /** Scan the ranges after the first in workers. Default true. */
  workers?: boolean;
}

/**
 * Scan a JSONL file of flat objects (one per line, blank lines skipped) and code `keyColumns`
 * plus condition, correct, matchesTarget and error. Why not a JSON parser: a summary needs 19 of
 * about 36 columns, and finding `"key":` in the bytes, then interning the value's bytes, is
 * several times faster than JSON.parse of every line. This is sound for the TrialRow contract,
 * whose values are scalars or arrays of strings: inside a JSON string every quote is escaped,
 * so `"key":` can only be a key. Values are interned by their raw text and decoded with
 * JSON.parse once per distinct text. A missing key reads as null. A large file is split in two
 * at a line start and the second half scanned in a worker at the same time; the codes of the
 * halves are then merged (few distinct values, so that is cheap).
 *
 * Throws {@link _BadLine} when instanceId, pairId or condition is missing or null, or the
 * condition is not clean, poisoned or nomemory; a TypeError naming the line when a line is not
 * a JSON object the scanner can read.
 */
export function _scanJsonl(
  path: string,
  keyColumns: readonly string[],
  options: _ScanOptions = {},
): _TrialColumns {
  const size = Deno.statSync(path).size;
  const splits = options.splits ??
    (size >= _SPLIT_BYTES && (navigator.hardwareConcurrency ?? 1) >= 2 ? [size / 2] : []);
  const bounds = [0, ...splits.map((s) => _lineStart(path, Math.floor(s), size)), size]
    .sort((a, b) => a - b);
  const ranges: [number, number][] = [];
  for (let i = 0; i + 1 < bounds.length; i++) {
    if (bounds[i] < bounds[i + 1]) ranges.push([bounds[i], bounds[i + 1]]);
  }
  if (ranges.length === 0) ranges.push([0, size]);
  const cols = [...keyColumns];
  const jobs = ranges.slice(1).map(([b, e]) =>
    options.workers === false ? null : _startWorker(path, cols, b, e)
  );
  const t0 = performance.now();
  const parts = [_scanRange(path, cols, ranges[0][0], ranges[0][1])];
  const waitMs = Math.max(60_000, 20 * (performance.now() - t0));
  jobs.forEach((job, i) => {
    const [b, e] = ranges[i + 1];
    parts.push(job?.(waitMs) ?? _scanRange(path, cols, b, e));
  });
  let lines = 0;
  for (const part of parts) {
    if (part.bad) {
      const line = lines + part.bad.line;
      if (part.bad.column !== null) throw new _BadLine(line, part.bad.column);
      throw new TypeError(part.bad.message.replace(/^line \d+/, `line ${line}`));
    }
    lines += part.lines;
  }
  return _merge(parts, cols);
}

/** Offset of the first line that starts at or after `at`. */
function _lineStart(path: string, at: number, size: number): number {
  if (at <= 0) return 0;
  if (at >= size) return size;
  const file = Deno.openSync(path);
  try {
    file.seekSync(at - 1, Deno.SeekMode.Start);
    const buf = new Uint8Array(1 << 16);
    for (let pos = at - 1; pos < size;) {
      const n = file.readSync(buf) ?? 0;
      if (n === 0) break;
      const nl = buf.subarray(0, n).indexOf(10);
      if (nl >= 0) return pos + nl + 1;
      pos += n;
    }
    return size;
  } finally {
    file.close();
  }
}

/**
 * Scan a range in a worker; returns a function that blocks until the worker is done. Blocking
 * keeps summarizeFile synchronous: the worker signals through shared memory, as its messages
 * cannot arrive while this thread waits. Null when workers are unavailable; the returned
 * function gives null when the worker failed or took over `waitMs`, and the caller then scans
 * the range itself.
 */
function _startWorker(
  path: string,
  keyColumns: string[],
  begin: number,
  end: number,
): ((waitMs: number) => _ScanPart | null) | null {
  let worker: Worker;
  const control = new SharedArrayBuffer(8), state = new Int32Array(control);
  try {
    worker = new Worker(new URL("./_scan_worker.ts", import.meta.url), { type: "module" });
    worker.postMessage({ path, keyColumns, begin, end, control });
  } catch {
    return null;
  }
  return (waitMs) => {
    try {
      if (Atomics.wait(state, 0, 0, waitMs) === "timed-out" || Atomics.load(state, 0) !== 1) {
        return null;
      }
      const result = new SharedArrayBuffer(state[1]);
      worker.postMessage({ result });
      Atomics.wait(state, 0, 1, waitMs);
      return Atomics.load(state, 0) === 2 ? _unpack(result) : null;
    } finally {
      worker.terminate();
    }
  };
}

/** Layout of a packed part: its scalars, then the lengths of its arrays in order. */
interface _Meta {
  rows: number;
  lines: number;
  columns: string[] | null;
  bad: _ScanPart["bad"];
  lengths: number[];
}

/** A part as one block of bytes (meta JSON, then each array 8-byte aligned), written on demand. */
export function _pack(part: _ScanPart): { size: number; write: (into: SharedArrayBuffer) => void } {
  const arrays: ArrayBufferView[] = [
    ...part.raw.flatMap((r) => [r.codes, r.arena, r.offsets]),
    part.condition,
    part.correct,
    part.target,
    part.error,
  ];
  const meta: _Meta = {
    rows: part.rows,
    lines: part.lines,
    columns: part.columns,
    bad: part.bad,
    lengths: arrays.map((a) => a.byteLength),
  };
  const head = new TextEncoder().encode(JSON.stringify(meta));
  let size = _align(4 + head.length);
  for (const a of arrays) size += _align(a.byteLength);
  return {
    size,
    write(into) {
      const bytes = new Uint8Array(into);
      new DataView(into).setUint32(0, head.length, true);
      bytes.set(head, 4);
      let at = _align(4 + head.length);
      for (const a of arrays) {
        bytes.set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), at);
        at += _align(a.byteLength);
      }
    },
  };
}

function _unpack(buffer: SharedArrayBuffer): _ScanPart {
  const headLength = new DataView(buffer).getUint32(0, true);
  // TextDecoder does not take views of shared memory: copy the (small) header first.
  const meta = JSON.parse(
    new TextDecoder().decode(new Uint8Array(buffer, 4, headLength).slice()),
  ) as _Meta;
  let at = _align(4 + headLength), next = 0;
  const take = <T>(make: (b: SharedArrayBuffer, at: number, n: number) => T, width: number) => {
    const bytes = meta.lengths[next++];
    const view = make(buffer, at, bytes / width);
    at += _align(bytes);
    return view;
  };
  const i32 = (b: SharedArrayBuffer, o: number, n: number) => new Int32Array(b, o, n);
  const u8 = (b: SharedArrayBuffer, o: number, n: number) => new Uint8Array(b, o, n);
  const i8 = (b: SharedArrayBuffer, o: number, n: number) => new Int8Array(b, o, n);
  const columns = (meta.lengths.length - 4) / 3;
  const raw: _RawColumn[] = [];
  for (let j = 0; j < columns; j++) {
    raw.push({ codes: take(i32, 4), arena: take(u8, 1), offsets: take(i32, 4) });
  }
  return {
    rows: meta.rows,
    lines: meta.lines,
    columns: meta.columns,
    bad: meta.bad,
    raw,
    condition: take(u8, 1),
    correct: take(i8, 1),
    target: take(i8, 1),
    error: take(u8, 1),
  };
}

function _align(n: number): number {
  return (n + 7) & ~7;
}

/**
 * Join parts: give each distinct raw text one code across parts (first seen first), then map
 * raw codes to codes of decoded values. Strings without escapes are the common case and need no
 * decoding beyond dropping the quotes: distinct such texts are distinct values.
 */
function _merge(parts: _ScanPart[], cols: string[]): _TrialColumns {
  const rows = parts.reduce((a, p) => a + p.rows, 0);
  const codes = new Map<string, Int32Array>(), values = new Map<string, unknown[]>();
  cols.forEach((c, j) => {
    let arena: Uint8Array, offsets: Int32Array, maps: (Int32Array | null)[];
    if (parts.length === 1) {
      ({ arena, offsets } = parts[0].raw[j]);
      maps = [null];
    } else {
      const all = new _ByteInterner();
      maps = parts.map(({ raw }) => {
        const { arena, offsets } = raw[j];
        const map = new Int32Array(offsets.length - 1);
        for (let k = 0; k < map.length; k++) map[k] = all.code(arena, offsets[k], offsets[k + 1]);
        return map;
      });
      arena = all.arena.subarray(0, all.offsets[all.count]);
      offsets = all.offsets.subarray(0, all.count + 1);
    }
    const n = offsets.length - 1;
    const copy = arena.buffer instanceof SharedArrayBuffer ? arena.slice() : arena;
    let plain = copy.indexOf(92 /* \ */) < 0;
    for (let k = 0; k < n && plain; k++) plain = copy[offsets[k]] === 34;
    let ascii = true;
    for (let i = 0; i < copy.length && ascii; i++) ascii = copy[i] < 128;
    const decoder = new TextDecoder(), text = ascii ? decoder.decode(copy) : "";
    const rawText = (k: number) =>
      ascii
        ? text.slice(offsets[k], offsets[k + 1])
        : decoder.decode(copy.subarray(offsets[k], offsets[k + 1]));
    let valueCode: Int32Array | null = null, vals: unknown[];
    if (plain) {
      vals = new Array(n);
      if (ascii) {
        for (let k = 0; k < n; k++) vals[k] = text.slice(offsets[k] + 1, offsets[k + 1] - 1);
      } else for (let k = 0; k < n; k++) vals[k] = rawText(k).slice(1, -1);
    } else {
      const interner = new _Interner();
      valueCode = new Int32Array(n);
      for (let k = 0; k < n; k++) valueCode[k] = interner.code(_decode(rawText(k)));
      vals = interner.values;
    }
    const out = new Int32Array(rows);
    let base = 0;
    parts.forEach((part, p) => {
      const local = part.raw[j].codes, map = maps[p];
      if (!map && !valueCode) out.set(local, base);
      else {
        for (let i = 0; i < local.length; i++) {
          const r = map ? map[local[i]] : local[i];
          out[base + i] = valueCode ? valueCode[r] : r;
        }
      }
      base += part.rows;
    });
    codes.set(c, out);
    values.set(c, vals);
  });
  const join = <T extends Uint8Array | Int8Array>(
    make: (n: number) => T,
    pick: (p: _ScanPart) => T,
  ) => {
    const out = make(rows);
    let base = 0;
    for (const part of parts) (out.set(pick(part), base), base += part.rows);
    return out;
  };
  return {
    rows,
    columns: parts[0].columns ?? [],
    codes,
    values,
    condition: join((n) => new Uint8Array(n), (p) => p.condition),
    correct: join((n) => new Int8Array(n), (p) => p.correct),
    target: join((n) => new Int8Array(n), (p) => p.target),
    error: join((n) => new Uint8Array(n), (p) => p.error),
  };
}

/** A scalar's value from its JSON text; strings without escapes need no parser. */
function _decode(raw: string): unknown {
  if (raw.charCodeAt(0) === 34) return raw.includes("\\") ? JSON.parse(raw) : raw.slice(1, -1);
  return JSON.parse(raw);
}
