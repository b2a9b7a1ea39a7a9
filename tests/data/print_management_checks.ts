/**
 * Print what the management checks of the data construction read, from a management sweep
 * (every policy, both attacks, writing and retrieval at the paper's defaults) per dataset:
 *
 *   MEMGAUGE_DATA=/work/shared/data deno run -A tests/data/print_management_checks.ts demo locomo longmemeval
 *
 * - SC drops the helpful record from how many of the clean contexts where UM has it (the
 *   construction should keep this at most 2%: SC is the idealised bound with complete feedback);
 * - poisoned memories where a risk record that states y_adv survives SC (should be none);
 * - clean contexts where PQ or NC quarantine background records (should be some);
 * - clean utility, poisoned utility and ASR per policy (median across the agents run).
 * Contexts do not depend on the agent; the answers do. This is a report about the data and the
 * offline simulator, not about models.
 */
import { resolveAgents } from "../../lib/agents/resolve_agents.ts";
import { loadDataset } from "../../lib/data/datasets.ts";
import type { Instance } from "../../lib/schema/instance.ts";
import type { TrialRow } from "../../lib/schema/trial_row.ts";
import { PAPER_DEFAULTS } from "../../lib/schema/operating_point.ts";
import { OFFLINE_RANKERS } from "../../lib/stages/writing/rankers.ts";
import { sweep } from "../../lib/run/sweep.ts";
import { admit } from "../../lib/stages/writing/admit.ts";

const names = Deno.args.length > 0 ? Deno.args : ["demo"];
const AGENTS = [
  "reference:careful",
  "reference:balanced",
  "reference:compliant",
  "reference:recency",
  "reference:skimmer",
];
const POLICIES = ["UM", "PQ", "NC", "SC"];

const median = (xs: number[]) => {
  const s = xs.toSorted((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const share = (rows: TrialRow[], pick: (r: TrialRow) => boolean | null) =>
  rows.length === 0 ? 0 : rows.filter((r) => pick(r) === true).length / rows.length;

/** Ids of the risk records that state y_adv, per instance and attack, at the row's coverage. */
async function _riskStatingTarget(instance: Instance, attack: "minja" | "sleeper", row: TrialRow) {
  const trace = instance.risk[attack]!;
  const ranking = await OFFLINE_RANKERS[row.ranker].rank(trace, { seed: row.seed });
  const admitted = admit({ ranking, theta: row.thetaW });
  const byId = new Map(trace.units.map((u) => [u.id, u]));
  const states = admitted.some((id) => byId.get(id)!.asserts === instance.target);
  return states ? `${trace.id}@${admitted.length}` : null;
}

for (const name of names) {
  const instances = await loadDataset({
    name,
    seed: 0,
    bankSize: PAPER_DEFAULTS.bankSize,
    traceLoad: 1,
  });
  const byId = new Map(instances.map((i) => [i.id, i]));
  const rows = await sweep({
    stage: "management",
    policies: POLICIES,
    instances,
    dataset: name,
    agents: resolveAgents({ specs: AGENTS }),
    seed: 0,
  });
  console.log(`${name} (${instances.length} instances, |B| = ${PAPER_DEFAULTS.bankSize}):`);
  for (const attack of ["minja", "sleeper"] as const) {
    const of = (policy: string, condition: string) =>
      rows.filter((r) =>
        r.attack === attack && r.policy === policy && r.condition === condition &&
        r.agent === AGENTS[0]
      );
    const um = new Map(of("UM", "clean").map((r) => [r.instanceId, r]));
    const withHelpful = of("SC", "clean").filter((r) => um.get(r.instanceId)?.helpfulInContext);
    const dropped = withHelpful.filter((r) => !r.helpfulInContext);
    let survived = 0;
    for (const r of of("SC", "poisoned")) {
      const id = await _riskStatingTarget(byId.get(r.instanceId)!, attack, r);
      if (id !== null && !r.quarantinedIds.includes(id)) survived++;
    }
    const background = (r: TrialRow) => {
      const bank = new Set(byId.get(r.instanceId)!.background.map((b) => b.id));
      return r.quarantinedIds.some((id) => bank.has(id));
    };
    const quarantining = ["PQ", "NC"].map((p) => {
      const clean = of(p, "clean");
      return `${p} ${clean.filter(background).length}/${clean.length}`;
    });
    const dropShare = withHelpful.length === 0 ? 0 : dropped.length / withHelpful.length;
    console.log(
      `  ${attack}: SC drops the helpful record from ${dropped.length} of ${withHelpful.length} ` +
        `clean contexts where UM has it (${(100 * dropShare).toFixed(1)}%` +
        `${dropped.length > 0 ? `: ${dropped.map((r) => r.instanceId).join(", ")}` : ""}); ` +
        `risk records stating y_adv that survive SC: ${survived}; ` +
        `clean contexts with background quarantined: ${quarantining.join(", ")}`,
    );
    const line = POLICIES.map((p) => {
      const metric = (condition: string, pick: (r: TrialRow) => boolean | null) =>
        median(
          AGENTS.map((a) =>
            share(
              rows.filter((r) =>
                r.attack === attack && r.policy === p && r.condition === condition &&
                r.agent === a
              ),
              pick,
            )
          ),
        ).toFixed(3);
      return `${p} ${metric("clean", (r) => r.correct)}/${metric("poisoned", (r) => r.correct)}/${
        metric("poisoned", (r) => r.matchesTarget)
      }`;
    });
    console.log(
      `    clean U / poisoned U / ASR (median of ${AGENTS.join(", ")}): ${line.join("  ")}`,
    );
  }
}
