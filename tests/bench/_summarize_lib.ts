/**
 * Run `summarizeFile` of the kit at ROOT (a checkout or `git archive` of any commit) on ROWS and
 * write the summary to OUT (CSV): the library alone, without the CLI's input checks, so two
 * commits compare like for like. Used by summarize_1m.ts.
 *
 * Run: deno run -A tests/bench/_summarize_lib.ts ROOT ROWS OUT RESAMPLES
 */
const [root, rows, out, resamples] = Deno.args;
const { summarizeFile } = await import(`file://${root}/lib/stats/summarize_file.ts`);
summarizeFile(rows, { resamples: Number(resamples) }).writeCSV(out);
