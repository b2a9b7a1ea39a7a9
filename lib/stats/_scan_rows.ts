/** Read the columns a summary needs from a JSONL rows file with Polars, types checked on read. */
import pl from "nodejs-polars";
import {
  type ColumnKind,
  columnMisfit,
  NON_NULL_COLUMNS,
  polarsDtype,
  ROW_CONDITIONS,
} from "./_row_columns.ts";

/** The first line of a rows file as an object; TypeError for an empty file or a non-object. */
export function firstRow(path: string): Record<string, unknown> {
  const line = _lines(path).next();
  if (line.done) throw new TypeError(`Cannot read rows from ${path}: the file is empty`);
  const value = _parse(line.value.text);
  if (value === undefined || value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new TypeError(
      `Cannot read rows from ${path}: line ${line.value.line} is not a JSON object`,
    );
  }
  return value as Record<string, unknown>;
}

/** Bytes of the rows file Polars parses at a time: memory follows this, not the file size. */
export const SCAN_CHUNK_BYTES = 32 << 20;

/**
 * What a reducer of {@link scanRows} must return: a frame whose `_row` column holds, for each
 * row it keeps as it is, the row's index (`_row` of its input), and whose `_last` column holds
 * the largest input index in each output row (so the rows of a block are counted).
 */
export const ROW_INDEX_COLUMN = "_row", LAST_INDEX_COLUMN = "_last";

/**
 * Read `columns` (name to kind) of every line with Polars' NDJSON reader and the declared schema
 * (other keys are skipped unparsed), reduced by `reduce`. Polars refuses a value of the wrong
 * type in a boolean or numeric column (`correct: "yes"`, `thetaR: "high"`, `k: 1.5`) and a line
 * that is not JSON; a missing or null instanceId, pairId or condition, or an unknown condition
 * (`invalid`, which `reduce` must keep as is) is found after the read. Either way the file is
 * then walked line by line to name the first offending line and column (TypeError, one line).
 * A string column takes a JSON number or boolean as its text (Polars' reader casts scalars to
 * the declared string type), so `instanceId: 5` reads as "5". Blank lines are skipped and
 * counted in line numbers.
 *
 * Streamed: Polars maps a whole file into memory to parse it, so a file larger than
 * `chunkBytes` is read in blocks of whole lines, each parsed from a temporary file (deleted at
 * the end). A block is one Polars query, parse and `reduce` (its input carries the row index
 * `_row`): the parsed rows stay in Polars and only what `reduce` keeps reaches JavaScript (a
 * frame handed to JavaScript is freed only when V8 collects it), so peak memory is one block
 * plus the reduced frames, whatever the file's other columns hold. Returns the reduced blocks
 * concatenated in file order.
 */
export function scanRows(
  path: string,
  columns: Record<string, ColumnKind>,
  reduce: (rows: pl.LazyDataFrame, invalid: pl.Expr) => pl.LazyDataFrame,
  chunkBytes: number = SCAN_CHUNK_BYTES,
): pl.DataFrame {
  const schema = Object.fromEntries(
    Object.entries(columns).map(([c, kind]) => [c, polarsDtype(kind, c)]),
  );
  const col = pl.col;
  let invalid = col("condition").cast(pl.Utf8).isIn([...ROW_CONDITIONS]).not();
  for (const c of NON_NULL_COLUMNS) invalid = invalid.or(col(c).isNull());
  const blocks: pl.DataFrame[] = [];
  let rows = 0;
  const scan = (file: string) => {
    let block: pl.DataFrame;
    try {
      // scanJson, not readJSON: the latter fails under Deno in nodejs-polars 0.25.2.
      const lf = pl.scanJson(file, { schema } as never).withRowIndex(ROW_INDEX_COLUMN);
      block = reduce(lf, invalid).collectSync();
    } catch (e) {
      const why = explainFile(path, columns, rows) ?? (e as Error).message.split("\n")[0];
      throw new TypeError(`Cannot read rows from ${path}: ${why}`);
    }
    const [last, firstBad] = block.select(
      col(LAST_INDEX_COLUMN).max().alias("last"),
      col(ROW_INDEX_COLUMN).filter(col(ROW_INDEX_COLUMN).isNotNull().and(invalid.fillNull(true)))
        .min().alias("bad"),
    ).row(0);
    if (firstBad !== null && firstBad !== undefined) {
      const row = rows + Number(firstBad);
      const why = explainFile(path, columns, row) ?? `row ${row + 1} is invalid`;
      throw new TypeError(`Cannot read rows from ${path}: ${why}`);
    }
    rows += last === null || last === undefined ? 0 : Number(last) + 1;
    blocks.push(block);
  };
  if (Deno.statSync(path).size <= chunkBytes) scan(path);
  else _forEachBlock(path, chunkBytes, scan);
  return blocks.length === 1 ? blocks[0] : pl.concat(blocks, { how: "vertical", rechunk: false });
}

/**
 * Copy `path` block by block (whole lines, about `bytes` each; a longer line gets a block of its
 * own) to one temporary file and call `use` with its path after each block.
 */
function _forEachBlock(path: string, bytes: number, use: (file: string) => void): void {
  const tmp = Deno.makeTempFileSync({ prefix: "memgauge-rows-", suffix: ".jsonl" });
  const file = Deno.openSync(path);
  try {
    let buf = new Uint8Array(bytes);
    let held = 0;
    for (;;) {
      const n = file.readSync(buf.subarray(held));
      const end = held + (n ?? 0);
      if (n === null) {
        if (end > 0) Deno.writeFileSync(tmp, buf.subarray(0, end)), use(tmp);
        return;
      }
      const cut = buf.lastIndexOf(10, end - 1) + 1;
      if (cut === 0) {
        if (end === buf.length) {
          const grown = new Uint8Array(buf.length * 2);
          grown.set(buf);
          buf = grown;
        }
        held = end;
        continue;
      }
      Deno.writeFileSync(tmp, buf.subarray(0, cut));
      use(tmp);
      buf.copyWithin(0, cut, end);
      held = end - cut;
    }
  } finally {
    file.close();
    Deno.removeSync(tmp);
  }
}

/**
 * The first line, from the `fromRow`-th non-blank line on, that is not a JSON object or whose
 * value misfits its column, as "line N ...", or null if every line fits.
 */
export function explainFile(
  path: string,
  columns: Record<string, ColumnKind>,
  fromRow: number,
): string | null {
  let row = 0;
  for (const { line, text, last, ended } of _lines(path)) {
    if (row++ < fromRow) continue;
    const value = _parse(text);
    if (value === undefined) {
      return last && !ended
        ? `line ${line} is not valid JSON: the file ends mid-line (a torn last line?)`
        : `line ${line} is not valid JSON`;
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      return `line ${line} is not a JSON object`;
    }
    for (const [c, kind] of Object.entries(columns)) {
      const why = columnMisfit(c, kind, (value as Record<string, unknown>)[c]);
      if (why) return why.startsWith("lacks") ? `line ${line} ${why}` : `line ${line}, ${why}`;
    }
  }
  return null;
}

function _parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The non-blank lines of a file with their 1-based line numbers, read in 1 MiB chunks so files
 * larger than a JS string work. `last` marks the final one, `ended` whether a newline ends it.
 */
function* _lines(
  path: string,
): Generator<{ line: number; text: string; last: boolean; ended: boolean }> {
  let held: { line: number; text: string; ended: boolean } | null = null;
  for (const next of _rawLines(path)) {
    if (next.text.trim() === "") continue;
    if (held) yield { ...held, last: false };
    held = next;
  }
  if (held) yield { ...held, last: true };
}

function* _rawLines(path: string): Generator<{ line: number; text: string; ended: boolean }> {
  const file = Deno.openSync(path);
  const decoder = new TextDecoder();
  try {
    const buf = new Uint8Array(1 << 20);
    let carry: Uint8Array[] = [];
    let line = 1;
    for (let n = file.readSync(buf); n !== null; n = file.readSync(buf)) {
      let start = 0;
      for (let i = 0; i < n; i++) {
        if (buf[i] !== 10) continue;
        const part = buf.subarray(start, i);
        yield { line: line++, text: decoder.decode(_concat([...carry, part])), ended: true };
        carry = [];
        start = i + 1;
      }
      if (start < n) carry.push(buf.slice(start, n));
    }
    if (carry.length) yield { line, text: decoder.decode(_concat(carry)), ended: false };
  } finally {
    file.close();
  }
}

function _concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) out.set(p, offset), offset += p.length;
  return out;
}
