/**
 * The simplest program that does summarize's job on a rows file: read it line by line,
 * JSON.parse each line, pair clean and poisoned rows by (operating point, agent, attack, pairId,
 * trial) in a Map, and print per group the complete error-free pairs, clean and poisoned
 * utility and ASR (point estimates; no intervals, no type checks). The baseline of
 * summarize_1m.ts: what a researcher would write without the kit.
 *
 * Run: deno run -A tests/bench/_plain_line_scan.ts ROWS OUT
 */
const [path, out] = Deno.args;
type Side = { correct: boolean | null; target: boolean | null; error: unknown };
const pairs = new Map<string, { group: string; clean?: Side; poisoned?: Side }>();
const file = await Deno.open(path);
let carry = "";
const keyOf = (r: Record<string, unknown>) =>
  JSON.stringify([r.agent, r.dataset, r.attack, r.stage, r.thetaW, r.policy, r.thetaR, r.k]);
const take = (line: string) => {
  if (line.trim() === "") return;
  const r = JSON.parse(line);
  if (r.condition !== "clean" && r.condition !== "poisoned") return;
  const group = keyOf(r);
  const key = `${group}\u0000${r.pairId}\u0000${r.trial ?? 0}`;
  const pair = pairs.get(key) ?? { group };
  pair[r.condition as "clean" | "poisoned"] = {
    correct: r.correct,
    target: r.matchesTarget,
    error: r.error,
  };
  pairs.set(key, pair);
};
const decoder = new TextDecoder();
for await (const chunk of file.readable) {
  const lines = (carry + decoder.decode(chunk, { stream: true })).split("\n");
  carry = lines.pop()!;
  for (const line of lines) take(line);
}
take(carry);
const groups = new Map<string, number[]>();
const ok = (s?: Side) => s && s.error == null && s.correct !== null && s.target !== null;
for (const { group, clean, poisoned } of pairs.values()) {
  const g = groups.get(group) ?? [0, 0, 0, 0];
  if (ok(clean) && ok(poisoned)) {
    g[0]++, g[1] += +clean!.correct!, g[2] += +poisoned!.correct!, g[3] += +poisoned!.target!;
  }
  groups.set(group, g);
}
const csv = ["group,pairs,cleanUtility,poisonedUtility,asr"];
for (const [group, [n, c, p, a]] of groups) {
  csv.push(`${JSON.stringify(group)},${n},${c / n},${p / n},${a / n}`);
}
await Deno.writeTextFile(out, csv.join("\n") + "\n");
