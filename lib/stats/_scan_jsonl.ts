/** A JSONL scanner that reads only the columns a summary needs, straight into coded columns. */
import { _conditionCode, _Interner, _OTHER, type _TrialColumns } from "./_trial_columns.ts";

/** Bytes decoded per step; lines never straddle a step. */
const _CHUNK = 32 << 20;

/** A line the scanner found invalid, for the caller to explain with the zod schema. */
export class _BadLine extends Error {
  constructor(readonly line: number, readonly column: string) {
    super(`line ${line} lacks or misstates required column "${column}"`);
  }
}

/**
 * Scan a JSONL file of flat objects (one per line, blank lines skipped) and code `keyColumns`
 * plus condition, correct, matchesTarget and error. Why not a JSON parser: a summary needs 15 of
 * about 36 columns, and finding `"key":` with the engine's native string search then slicing
 * the value is several times faster than JSON.parse of every line. This is sound for the
 * TrialRow contract, whose values are scalars or arrays of strings: inside a JSON string every
 * quote is escaped, so `"key":` can only be a key. Values are interned by their raw text and
 * decoded with JSON.parse once per distinct text. A missing key reads as null.
 *
 * Throws {@link _BadLine} when instanceId, pairId or condition is missing or null, or the
 * condition is not clean, poisoned or nomemory.
 */
export function _scanJsonl(path: string, keyColumns: readonly string[]): _TrialColumns {
  const file = Deno.openSync(path);
  const decoder = new TextDecoder();
  const cols = [...keyColumns];
  const interners = cols.map(() => new _Interner());
  const lastRaw: string[] = cols.map(() => "\u0000");
  const lastCode = new Int32Array(cols.length);
  const all = [...cols, "condition", "correct", "matchesTarget", "error"].map((c) => `"${c}":`);
  const order = all.map((_, k) => k);
  const found = new Int32Array(all.length), ends = new Int32Array(all.length);
  const ids = new Set(["instanceId", "pairId"]);
  let lead = 0, prefix = "";
  const isLead = new Uint8Array(cols.length);
  const gap = new Int32Array(all.length), late = new Uint8Array(all.length);
  let cap = 1 << 16, rows = 0, lineNo = 0;
  let codes = cols.map(() => new Int32Array(cap));
  let condition = new Uint8Array(cap), correct = new Int8Array(cap);
  let target = new Int8Array(cap), error = new Uint8Array(cap);
  let columns: string[] | null = null;
  const required = new Set(["instanceId", "pairId"]);
  const buf = new Uint8Array(_CHUNK);
  let carry = new Uint8Array(0);
  try {
    for (;;) {
      const n = file.readSync(buf.subarray(carry.length)) ?? 0;
      buf.set(carry, 0);
      const filled = carry.length + n;
      let end = filled;
      if (n > 0) {
        end = buf.lastIndexOf(10, filled - 1) + 1;
        if (end === 0) {
          if (filled === buf.length) throw new TypeError(`line ${lineNo + 1} is over 32 MiB`);
          end = filled; // no newline: wait for more bytes unless at end of file
          carry = buf.slice(0, filled);
          continue;
        }
      }
      const text = decoder.decode(buf.subarray(0, end));
      carry = buf.slice(end, filled);
      let start = 0;
      while (start < text.length) {
        let stop = text.indexOf("\n", start);
        if (stop < 0) stop = text.length;
        lineNo++;
        if (stop === start || text.charCodeAt(start) !== 123 /* { */) {
          if (text.slice(start, stop).trim() !== "") {
            throw new TypeError(`line ${lineNo} is not a JSON object`);
          }
          start = stop + 1;
          continue;
        }
        if (columns === null) {
          columns = Object.keys(JSON.parse(text.slice(start, stop)));
          // Search keys in the first line's order, each from where the previous one was found.
          const line = text.slice(start, stop);
          order.sort((x, y) => _pos(line, all[x]) - _pos(line, all[y]));
          // Leading keys: grouping columns before the first id or outcome key in line 1.
          lead = 0;
          while (lead < order.length && order[lead] < cols.length && !ids.has(cols[order[lead]])) {
            lead++;
          }
          for (let q = 0; q < lead; q++) isLead[order[q]] = 1;
          for (let k = 0; k < all.length; k++) {
            late[k] = _pos(line, all[k]) > line.length / 2 ? 1 : 0;
          }
        }
        // Rows of one operating point share the line's beginning up to the last leading value:
        // if it equals the previous line's, so do the leading columns' codes.
        let from = start + 1, q = 0;
        const same = prefix !== "" && text.startsWith(prefix, start) &&
          text.charCodeAt(start + prefix.length) === 44;
        if (same) (from = start + prefix.length + 1, q = lead);
        for (; q < order.length; q++) {
          const k = order[q];
          // Searching costs about a nanosecond per character passed, so first try where the
          // key was relative to the cursor on the previous line (lines of one run share their
          // layout), then search from the nearer end: keys late in line 1 lie after long
          // values such as the output text.
          const pat = all[k], guess = from + gap[k];
          let at = text.startsWith(pat, guess) && guess < stop
            ? guess
            : late[k]
            ? text.lastIndexOf(pat, stop)
            : text.indexOf(pat, from);
          if (at < start || at >= stop) at = text.indexOf(pat, start); // key order differs
          if (at >= start && at < stop) gap[k] = at - from;
          if (at < 0 || at >= stop) {
            found[k] = -1;
            continue;
          }
          let v = at + all[k].length;
          while (text.charCodeAt(v) === 32) v++;
          found[k] = v;
          // Only coded columns need their value's end; for the outcome scalars the next search
          // may start at the value itself, as no key pattern can occur inside a value.
          if (k < cols.length) from = (ends[k] = _valueEnd(text, v, stop)) + 1;
          else from = v;
        }
        if (rows === cap) {
          cap *= 2;
          codes = codes.map((c) => _grow(c, new Int32Array(cap)));
          condition = _grow(condition, new Uint8Array(cap));
          correct = _grow(correct, new Int8Array(cap));
          target = _grow(target, new Int8Array(cap));
          error = _grow(error, new Uint8Array(cap));
        }
        for (let j = 0; j < cols.length; j++) {
          if (same && isLead[j]) {
            codes[j][rows] = lastCode[j];
            continue;
          }
          const v = found[j];
          if (v < 0) {
            if (required.has(cols[j])) throw new _BadLine(lineNo, cols[j]);
            codes[j][rows] = interners[j].code(null);
            continue;
          }
          // Sorted sweeps repeat the previous value: compare in place before slicing.
          const last = lastRaw[j];
          if (ends[j] - v === last.length && text.startsWith(last, v)) {
            codes[j][rows] = lastCode[j];
            continue;
          }
          const raw = text.slice(v, ends[j]);
          const code = interners[j].code(_decode(raw));
          if (raw === "null" && required.has(cols[j])) {
            throw new _BadLine(lineNo, cols[j]);
          }
          lastRaw[j] = raw;
          lastCode[j] = code;
          codes[j][rows] = code;
        }
        if (!same) {
          let ok = lead > 0;
          for (let q2 = 0; q2 < lead && ok; q2++) ok = found[order[q2]] >= 0;
          prefix = ok ? text.slice(start, ends[order[lead - 1]]) : "";
        }
        const c = found[cols.length];
        const cc = c < 0
          ? _OTHER
          : text.startsWith('"clean"', c)
          ? 0
          : text.startsWith('"poisoned"', c)
          ? 1
          : text.startsWith('"nomemory"', c)
          ? 2
          : _conditionCode(JSON.parse(text.slice(c, _valueEnd(text, c, stop))));
        if (cc === _OTHER) throw new _BadLine(lineNo, "condition");
        condition[rows] = cc;
        correct[rows] = _bool(text, found[cols.length + 1]);
        target[rows] = _bool(text, found[cols.length + 2]);
        const e = found[cols.length + 3];
        error[rows] = e < 0 || text.startsWith("null", e) ? 0 : 1;
        rows++;
        start = stop + 1;
      }
      if (n === 0) break;
    }
  } finally {
    file.close();
  }
  return {
    rows,
    columns: columns ?? [],
    codes: new Map(cols.map((c, j) => [c, codes[j].subarray(0, rows)])),
    values: new Map(cols.map((c, j) => [c, interners[j].values])),
    condition: condition.subarray(0, rows),
    correct: correct.subarray(0, rows),
    target: target.subarray(0, rows),
    error: error.subarray(0, rows),
  };
}

function _grow<T extends Int32Array | Int8Array | Uint8Array>(a: T, b: T): T {
  b.set(a);
  return b;
}

function _pos(line: string, pat: string): number {
  const at = line.indexOf(pat);
  return at < 0 ? Infinity : at;
}

/** End (exclusive) of the scalar value starting at v. */
function _valueEnd(text: string, v: number, stop: number): number {
  if (text.charCodeAt(v) === 34 /* " */) {
    let i = v + 1;
    for (;;) {
      const q = text.indexOf('"', i);
      if (q < 0 || q >= stop) throw new TypeError("unterminated string");
      // A quote preceded by an odd number of backslashes is escaped.
      let b = q - 1, odd = false;
      while (text.charCodeAt(b) === 92) (odd = !odd, b--);
      if (!odd) return q + 1;
      i = q + 1;
    }
  }
  let i = v;
  while (i < stop && !_isEnd(text.charCodeAt(i))) i++;
  return i;
}

/** A character that may follow a scalar value: `,` `}` `]` or whitespace. */
function _isEnd(ch: number): boolean {
  return ch === 44 || ch === 125 || ch === 93 || ch === 32 || ch === 13 || ch === 9 ||
    Number.isNaN(ch);
}

/** A scalar's value from its JSON text; strings without escapes need no parser. */
function _decode(raw: string): unknown {
  if (raw.charCodeAt(0) === 34) return raw.includes("\\") ? JSON.parse(raw) : raw.slice(1, -1);
  return JSON.parse(raw);
}

function _bool(text: string, v: number): number {
  if (v < 0) return -1;
  const ch = text.charCodeAt(v);
  return ch === 116 ? 1 : ch === 102 ? 0 : -1;
}
