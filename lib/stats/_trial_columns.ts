/** Trial rows as integer-coded columns: the compact form summaries group and pair on. */
import pl from "nodejs-polars";

/** Condition codes. */
export const _CLEAN = 0, _POISONED = 1, _NOMEMORY = 2, _OTHER = 3;

/**
 * Rows with every key column coded as small integers (code = index into `values[col]`, first
 * occurrence first) and the outcome columns as bytes: `correct` and `target` are 1, 0 or -1 for
 * null; `error` is 1 when the error column is non-null.
 */
export interface _TrialColumns {
  rows: number;
  /** Every column present in the rows, in first-row order. */
  columns: string[];
  codes: Map<string, Int32Array>;
  values: Map<string, unknown[]>;
  condition: Uint8Array;
  correct: Int8Array;
  target: Int8Array;
  error: Uint8Array;
  /** Polars dtypes of key columns, when known; the summary keeps them. */
  dtypes?: Record<string, unknown>;
}

/** Interns values of one column; `code` keeps the last value to skip lookups in sorted runs. */
export class _Interner {
  readonly map = new Map<unknown, number>();
  readonly values: unknown[] = [];
  code(v: unknown): number {
    let c = this.map.get(v);
    if (c === undefined) {
      c = this.values.length;
      this.map.set(v, c);
      this.values.push(v);
    }
    return c;
  }
}

/** Code the key columns and outcomes of a frame (the in-memory path of summarize). */
export function _fromFrame(df: pl.DataFrame, keyColumns: readonly string[]): _TrialColumns {
  const rows = df.height;
  const codes = new Map<string, Int32Array>(), values = new Map<string, unknown[]>();
  for (const c of keyColumns) {
    const arr = df.getColumn(c).toArray() as unknown[];
    const intern = new _Interner(), out = new Int32Array(rows);
    for (let i = 0; i < rows; i++) out[i] = intern.code(arr[i] ?? null);
    codes.set(c, out);
    values.set(c, intern.values);
  }
  const cond = df.getColumn("condition").cast(pl.Utf8).toArray() as (string | null)[];
  const cor = df.getColumn("correct").toArray() as unknown[];
  const tgt = df.getColumn("matchesTarget").toArray() as unknown[];
  const err = df.getColumn("error").toArray() as unknown[];
  const condition = new Uint8Array(rows), correct = new Int8Array(rows);
  const target = new Int8Array(rows), error = new Uint8Array(rows);
  for (let i = 0; i < rows; i++) {
    condition[i] = _conditionCode(cond[i]);
    correct[i] = _bool(cor[i]);
    target[i] = _bool(tgt[i]);
    error[i] = err[i] === null || err[i] === undefined ? 0 : 1;
  }
  return { rows, columns: df.columns, codes, values, condition, correct, target, error };
}

/** Condition name to code. */
export function _conditionCode(c: unknown): number {
  return c === "clean"
    ? _CLEAN
    : c === "poisoned"
    ? _POISONED
    : c === "nomemory"
    ? _NOMEMORY
    : _OTHER;
}

function _bool(v: unknown): number {
  return v === null || v === undefined ? -1 : v ? 1 : 0;
}
