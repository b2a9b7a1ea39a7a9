/** A byte-level scan of one newline-aligned byte range of a JSONL file of trial rows. */
import { _conditionCode, _OTHER } from "./_trial_columns.ts";

/** Bytes read per step; lines never straddle a step. */
const _CHUNK = 32 << 20;

const _ENC = new TextEncoder();
const _NULL = _ENC.encode("null");
const _CLEAN = _ENC.encode('"clean"'), _POISONED = _ENC.encode('"poisoned"');
const _NOMEMORY = _ENC.encode('"nomemory"');

/** One column's codes and the raw JSON text of each code, as UTF-8 bytes back to back. */
export interface _RawColumn {
  codes: Int32Array;
  /** Raw text of code c is `arena[offsets[c], offsets[c + 1])`. */
  arena: Uint8Array;
  offsets: Int32Array;
}

/**
 * A line the scan found invalid: `column` names a required column that is missing, null or (for
 * condition) not a condition; null when the line is not a JSON object the scan can read.
 */
export interface _Bad {
  line: number;
  column: string | null;
  message: string;
}

/** What a range scan found; line numbers count from the range's first line as 1. */
export interface _ScanPart {
  rows: number;
  /** Lines in the range, blank ones included. */
  lines: number;
  /** Keys of the range's first non-blank line, in order (null if it has none). */
  columns: string[] | null;
  raw: _RawColumn[];
  condition: Uint8Array;
  correct: Int8Array;
  target: Int8Array;
  error: Uint8Array;
  /** The first invalid line; rows after it are not scanned. */
  bad: _Bad | null;
}

/** Interns byte strings by content (open addressing over FNV-1a hashes) without making strings. */
export class _ByteInterner {
  arena = new Uint8Array(1 << 12);
  offsets = new Int32Array(1 << 10);
  count = 0;
  table = new Int32Array(1 << 10).fill(-1);
  hashes = new Int32Array(1 << 10);
  /** Whether the last `code` call added a new value. */
  added = false;

  code(buf: Uint8Array, s: number, e: number): number {
    let h = 0x811c9dc5 | 0;
    for (let i = s; i < e; i++) h = Math.imul(h ^ buf[i], 16777619);
    const mask = this.table.length - 1, arena = this.arena, offsets = this.offsets;
    for (let slot = h & mask;; slot = (slot + 1) & mask) {
      const c = this.table[slot];
      if (c < 0) {
        this.added = true;
        return this._add(buf, s, e, h, slot);
      }
      if (this.hashes[c] !== h) continue;
      const a = offsets[c], len = offsets[c + 1] - a;
      if (len !== e - s) continue;
      let i = 0;
      while (i < len && arena[a + i] === buf[s + i]) i++;
      if (i === len) {
        this.added = false;
        return c;
      }
    }
  }

  private _add(buf: Uint8Array, s: number, e: number, h: number, slot: number): number {
    const c = this.count++;
    if (c + 2 > this.offsets.length) {
      const o = new Int32Array(this.offsets.length * 2);
      o.set(this.offsets);
      this.offsets = o;
      const hs = new Int32Array(this.offsets.length);
      hs.set(this.hashes);
      this.hashes = hs;
    }
    const at = this.offsets[c];
    if (at + e - s > this.arena.length) {
      const a = new Uint8Array(Math.max(this.arena.length * 2, at + e - s));
      a.set(this.arena);
      this.arena = a;
    }
    this.arena.set(buf.subarray(s, e), at);
    this.offsets[c + 1] = at + e - s;
    this.hashes[c] = h;
    this.table[slot] = c;
    if (this.count * 2 > this.table.length) this._rehash();
    return c;
  }

  private _rehash() {
    const table = new Int32Array(this.table.length * 2).fill(-1), mask = table.length - 1;
    for (let c = 0; c < this.count; c++) {
      let slot = this.hashes[c] & mask;
      while (table[slot] >= 0) slot = (slot + 1) & mask;
      table[slot] = c;
    }
    this.table = table;
  }
}

/**
 * Scan bytes `[begin, end)` of a JSONL file of flat objects (one per line, blank lines skipped);
 * `begin` must start a line. Codes `keyColumns` by their raw JSON text plus condition, correct,
 * matchesTarget and error; see {@link _scanJsonl} for why no JSON parser and why this is sound.
 * Works on bytes: no text is decoded but line 1 and the distinct values.
 */
export function _scanRange(
  path: string,
  keyColumns: readonly string[],
  begin: number,
  end: number,
): _ScanPart {
  const file = Deno.openSync(path);
  const cols = [...keyColumns];
  const interners = cols.map(() => new _ByteInterner());
  const lastAt = new Int32Array(cols.length).fill(-1), lastLen = new Int32Array(cols.length);
  const lastCode = new Int32Array(cols.length);
  const names = [...cols, "condition", "correct", "matchesTarget", "error"];
  const pats = names.map((c) => _ENC.encode(`"${c}":`));
  const order = names.map((_, k) => k);
  const found = new Int32Array(names.length), ends = new Int32Array(names.length);
  const gap = new Int32Array(names.length), late = new Uint8Array(names.length);
  const required = new Uint8Array(cols.map((c) => c === "instanceId" || c === "pairId" ? 1 : 0));
  let cap = 1 << 16, rows = 0, lineNo = 0, laidOut = false;
  let codes = cols.map(() => new Int32Array(cap));
  let condition = new Uint8Array(cap), correct = new Int8Array(cap);
  let target = new Int8Array(cap), error = new Uint8Array(cap);
  let columns: string[] | null = null, bad: _Bad | null = null;
  const buf = new Uint8Array(Math.min(_CHUNK, end - begin + 1));
  let carry = 0, pos = begin;
  const fail = (
    column: string | null,
    message: string,
  ) => (bad = { line: lineNo, column, message });
  try {
    file.seekSync(begin, Deno.SeekMode.Start);
    scan: for (;;) {
      let n = 0;
      while (pos < end && carry + n < buf.length) {
        const got = file.readSync(buf.subarray(carry + n, Math.min(buf.length, carry + end - pos)));
        if (!got) break;
        (n += got, pos += got);
      }
      const filled = carry + n, last = n === 0 || pos >= end;
      let stopAt = filled;
      if (!last) {
        stopAt = buf.lastIndexOf(10, filled - 1) + 1;
        if (stopAt === 0) {
          if (filled === buf.length) {
            fail(null, `line ${lineNo + 1} is over ${_CHUNK >> 20} MiB`);
            break;
          }
          carry = filled;
          continue;
        }
      }
      lastAt.fill(-1); // the previous values' bytes are about to move
      let start = 0;
      while (start < stopAt) {
        let stop = buf.indexOf(10, start);
        if (stop < 0 || stop >= stopAt) stop = stopAt;
        lineNo++;
        if (stop === start || buf[start] !== 123 /* { */) {
          for (let i = start; i < stop; i++) {
            const b = buf[i];
            if (b !== 32 && b !== 9 && b !== 13 && b !== 11 && b !== 12) {
              fail(null, `line ${lineNo} is not a JSON object`);
              break scan;
            }
          }
          start = stop + 1;
          continue;
        }
        if (!laidOut) {
          laidOut = true;
          const line = new TextDecoder().decode(buf.subarray(start, stop));
          if (begin === 0) columns = Object.keys(JSON.parse(line));
          // Search keys in the first line's order, each from where the previous one was found;
          // keys late in the line lie after long values such as the output text.
          const at = pats.map((p) => _find(buf, p, start, stop));
          const rank = (k: number) => at[k] < 0 ? Infinity : at[k];
          order.sort((x, y) => rank(x) - rank(y));
          for (let k = 0; k < names.length; k++) {
            late[k] = at[k] - start > (stop - start) / 2 ? 1 : 0;
          }
        }
        let from = start + 1;
        for (let q = 0; q < order.length; q++) {
          const k = order[q], pat = pats[k];
          // First try where the key was relative to the cursor on the previous line (lines of
          // one run share their layout), then search from the nearer end.
          const guess = from + gap[k];
          let at = guess + pat.length <= stop && _at(buf, pat, guess)
            ? guess
            : late[k]
            ? _findLast(buf, pat, start, stop)
            : _find(buf, pat, from, stop);
          if (at < 0) at = _find(buf, pat, start, stop); // key order differs
          if (at < 0) {
            found[k] = -1;
            continue;
          }
          gap[k] = at - from;
          let v = at + pat.length;
          while (buf[v] === 32) v++;
          found[k] = v;
          // Only coded columns need their value's end; for the outcome scalars the next search
          // may start at the value itself, as no key pattern can occur inside a value.
          if (k < cols.length) {
            const e = _valueEnd(buf, v, stop);
            if (e < 0) {
              fail(null, `line ${lineNo} has an unterminated string in "${names[k]}"`);
              break scan;
            }
            from = (ends[k] = e) + 1;
          } else from = v;
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
          const v = found[j];
          if (v < 0) {
            if (required[j]) {
              fail(cols[j], `line ${lineNo} lacks "${cols[j]}"`);
              break scan;
            }
            codes[j][rows] = interners[j].code(_NULL, 0, 4);
            continue;
          }
          // Sorted sweeps repeat the previous value: compare bytes before hashing.
          const len = ends[j] - v, la = lastAt[j];
          if (la >= 0 && len === lastLen[j]) {
            let i = 0;
            while (i < len && buf[la + i] === buf[v + i]) i++;
            if (i === len) {
              codes[j][rows] = lastCode[j];
              continue;
            }
          }
          const it = interners[j];
          const code = it.code(buf, v, ends[j]);
          if (it.added && required[j] && len === 4 && _at(buf, _NULL, v)) {
            fail(cols[j], `line ${lineNo} has a null "${cols[j]}"`);
            break scan;
          }
          (lastAt[j] = v, lastLen[j] = len, lastCode[j] = code);
          codes[j][rows] = code;
        }
        const c = found[cols.length];
        let cc = _OTHER;
        if (c >= 0) {
          cc = _at(buf, _CLEAN, c)
            ? 0
            : _at(buf, _POISONED, c)
            ? 1
            : _at(buf, _NOMEMORY, c)
            ? 2
            : -1;
          if (cc < 0) {
            const e = _valueEnd(buf, c, stop);
            try {
              cc = e < 0 ? _OTHER : _conditionCode(
                JSON.parse(new TextDecoder().decode(buf.subarray(c, e))),
              );
            } catch {
              cc = _OTHER;
            }
          }
        }
        if (cc === _OTHER) {
          fail("condition", `line ${lineNo} has no valid "condition"`);
          break scan;
        }
        condition[rows] = cc;
        correct[rows] = _bool(buf, found[cols.length + 1]);
        target[rows] = _bool(buf, found[cols.length + 2]);
        const e = found[cols.length + 3];
        error[rows] = e < 0 || _at(buf, _NULL, e) ? 0 : 1;
        rows++;
        start = stop + 1;
      }
      if (last) break;
      buf.copyWithin(0, stopAt, filled);
      carry = filled - stopAt;
    }
  } finally {
    file.close();
  }
  return {
    rows,
    lines: lineNo,
    columns,
    raw: cols.map((_, j) => ({
      codes: codes[j].subarray(0, rows),
      arena: interners[j].arena.subarray(0, interners[j].offsets[interners[j].count]),
      offsets: interners[j].offsets.subarray(0, interners[j].count + 1),
    })),
    condition: condition.subarray(0, rows),
    correct: correct.subarray(0, rows),
    target: target.subarray(0, rows),
    error: error.subarray(0, rows),
    bad,
  };
}

function _grow<T extends Int32Array | Int8Array | Uint8Array>(a: T, b: T): T {
  b.set(a);
  return b;
}

/** Whether `pat` occurs in `buf` at `at`. */
function _at(buf: Uint8Array, pat: Uint8Array, at: number): boolean {
  for (let i = 0; i < pat.length; i++) if (buf[at + i] !== pat[i]) return false;
  return true;
}

/** First occurrence of `pat` in `buf[from, stop)`, or -1. */
function _find(buf: Uint8Array, pat: Uint8Array, from: number, stop: number): number {
  const first = pat[0], lastStart = stop - pat.length;
  for (let i = buf.indexOf(first, from); i >= 0 && i <= lastStart; i = buf.indexOf(first, i + 1)) {
    if (_at(buf, pat, i)) return i;
  }
  return -1;
}

/** Last occurrence of `pat` in `buf[from, stop)`, or -1. */
function _findLast(buf: Uint8Array, pat: Uint8Array, from: number, stop: number): number {
  const first = pat[0];
  for (let i = stop - pat.length; i >= from; i--) {
    if (buf[i] === first && _at(buf, pat, i)) return i;
  }
  return -1;
}

/** End (exclusive) of the scalar value starting at v, or -1 for an unterminated string. */
function _valueEnd(buf: Uint8Array, v: number, stop: number): number {
  if (buf[v] === 34 /* " */) {
    let i = v + 1;
    for (;;) {
      const q = buf.indexOf(34, i);
      if (q < 0 || q >= stop) return -1;
      // A quote preceded by an odd number of backslashes is escaped.
      let b = q - 1, odd = false;
      while (buf[b] === 92) (odd = !odd, b--);
      if (!odd) return q + 1;
      i = q + 1;
    }
  }
  let i = v;
  while (i < stop) {
    const ch = buf[i];
    // A scalar ends at `,` `}` `]` or whitespace.
    if (ch === 44 || ch === 125 || ch === 93 || ch === 32 || ch === 13 || ch === 9) break;
    i++;
  }
  return i;
}

function _bool(buf: Uint8Array, v: number): number {
  if (v < 0) return -1;
  const ch = buf[v];
  return ch === 116 ? 1 : ch === 102 ? 0 : -1;
}
