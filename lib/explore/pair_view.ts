/**
 * The pair view: one pair trial's clean and poisoned runs side by side, aligned by stage
 * (writing, management, retrieval, agent, judge), with what the risk trace changed said first.
 * A pure function from a pair to HTML, so the explorer page (in the browser) and a notebook cell
 * (server-side, `explore`) show the same view; the one chart is drawn by Observable Plot into
 * the document it is given.
 */
import * as Plot from "@observablehq/plot";
import type {
  PairTrajectory,
  TrajectoryMessage,
  TrajectoryRecord,
  TrajectoryRun,
  TrajectoryTrace,
} from "../schema/pair_trajectory.ts";
import type { PairSummary, RunSummary } from "./explore_data.ts";

/** The view's stylesheet, scoped to `.mg-pair` (the page and notebook cells include it). */
export const PAIR_VIEW_CSS = `
.mg-pair { font: 13px/1.45 "DejaVu Sans", system-ui, sans-serif; color: #1d1d1f; text-align: left; }
/* Notebook front ends right-align and stripe table cells; the view's tables read left to right. */
.mg-pair table td, .mg-pair table th { text-align: left !important; }
.mg-pair table tr { background: transparent !important; }
.mg-pair h2 { font-size: 17px; margin: 0 0 4px; }
.mg-pair h3 { font-size: 14px; margin: 14px 0 6px; }
.mg-pair .mg-q { margin: 4px 0; font-size: 14px; }
.mg-pair .mg-meta { color: #555; margin: 2px 0 8px; }
.mg-pair .mg-ans { display: inline-block; padding: 0 5px; border-radius: 3px; font-weight: 600; }
.mg-pair .mg-ystar { background: #dcefdc; color: #1b5e20; }
.mg-pair .mg-yadv { background: #fde0dc; color: #8e1b10; }
.mg-pair .mg-diff { background: #fff8e1; border: 1px solid #f0d68a; border-radius: 6px; padding: 6px 12px; }
.mg-pair .mg-diff ul { margin: 4px 0; padding-left: 18px; }
.mg-pair table.mg-stages { border-collapse: collapse; width: 100%; table-layout: fixed; margin-top: 8px; }
.mg-pair table.mg-stages > thead th { background: #f3f3f5; text-align: left; padding: 4px 8px; }
.mg-pair table.mg-stages col.mg-stage-col { width: 112px; }
.mg-pair table.mg-stages > tbody > tr > th { text-align: left; vertical-align: top; padding: 6px; background: #fafafa; font-weight: 600; }
.mg-pair table.mg-stages > tbody > tr > td { vertical-align: top; padding: 6px 8px; border-top: 1px solid #e4e4e7; width: 50%; overflow-wrap: anywhere; }
.mg-pair table.mg-stages > tbody > tr > th small { display: block; font-weight: 400; color: #666; }
.mg-pair ol.mg-slots { margin: 0; padding-left: 22px; }
.mg-pair ol.mg-slots li { margin: 2px 0 6px; padding: 3px 6px; border-radius: 4px; border: 1px solid transparent; }
.mg-pair li.mg-changed { border-color: #d32f2f; background: #fff1f0; }
.mg-pair li.mg-displaced { border-color: #9e9e9e; border-style: dashed; background: #f5f5f5; }
.mg-pair .mg-role { display: inline-block; font-size: 11px; font-weight: 700; padding: 0 5px; border-radius: 3px; margin-right: 4px; text-transform: uppercase; letter-spacing: .03em; }
.mg-pair .mg-role-risk { background: #d32f2f; color: white; }
.mg-pair .mg-role-helpful { background: #2e7d32; color: white; }
.mg-pair .mg-role-background, .mg-pair .mg-role-record { background: #e0e0e0; color: #333; }
.mg-pair .mg-id { color: #666; font-family: "DejaVu Sans Mono", monospace; font-size: 11px; }
.mg-pair .mg-text { white-space: pre-wrap; }
.mg-pair .mg-chip { display: inline-block; font-size: 11px; color: #555; border: 1px solid #ddd; border-radius: 8px; padding: 0 5px; margin-left: 3px; }
.mg-pair .mg-none { color: #888; font-style: italic; }
.mg-pair table.mg-units { border-collapse: collapse; width: 100%; font-size: 12px; table-layout: fixed; }
.mg-pair table.mg-units col.mg-u-rank { width: 38px; }
.mg-pair table.mg-units col.mg-u-in { width: 24px; }
.mg-pair table.mg-units col.mg-u-channel { width: 84px; }
.mg-pair table.mg-units td, .mg-pair table.mg-units th { border-bottom: 1px solid #eee; padding: 2px 4px; text-align: left; vertical-align: top; }
.mg-pair tr.mg-out td { color: #999; }
.mg-pair .mg-verdict { font-weight: 700; }
.mg-pair .mg-good { color: #1b5e20; }
.mg-pair .mg-bad { color: #b71c1c; }
.mg-pair .mg-neutral { color: #555; }
.mg-pair details { margin: 3px 0; }
.mg-pair summary { cursor: pointer; color: #1f4f99; }
.mg-pair .mg-msg { border-left: 3px solid #ccc; padding: 2px 8px; margin: 4px 0; }
.mg-pair .mg-msg-assistant { border-color: #1f77b4; }
.mg-pair .mg-msg-tool { border-color: #9467bd; }
.mg-pair .mg-note { color: #555; font-size: 12px; }
.mg-pair table.mg-cf { border-collapse: collapse; font-size: 12px; }
.mg-pair table.mg-cf td, .mg-pair table.mg-cf th { border: 1px solid #ddd; padding: 2px 6px; text-align: left; }
`;

/** Characters of a record's text shown before "more". */
const _SHOWN = 220;

function _esc(text: unknown): string {
  return String(text ?? "").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}

function _long(text: string, shown = _SHOWN): string {
  if (text.length <= shown) return `<span class="mg-text">${_esc(text)}</span>`;
  return `<span class="mg-text">${_esc(text.slice(0, shown))}</span><details><summary>… ${
    text.length - shown
  } more characters</summary><span class="mg-text">${_esc(text.slice(shown))}</span></details>`;
}

const _role = (role: string) => `<span class="mg-role mg-role-${_esc(role)}">${_esc(role)}</span>`;

function _verdict(run: RunSummary | TrajectoryRun | null): string {
  if (!run) return `<span class="mg-none">no row</span>`;
  if (run.error !== null) return `<span class="mg-verdict mg-bad">error</span>`;
  if (run.matchesTarget) return `<span class="mg-verdict mg-bad">matches y_adv (attacked)</span>`;
  if (run.correct) return `<span class="mg-verdict mg-good">supports y* (correct)</span>`;
  if (run.hedged) return `<span class="mg-verdict mg-neutral">hedged: supports neither</span>`;
  return `<span class="mg-verdict mg-neutral">supports neither</span>`;
}

function _said(run: RunSummary | null): string {
  if (!run) return "(no row)";
  return run.error !== null ? `error: ${run.error}` : `“${run.output ?? ""}”`;
}

function _recordItem(options: {
  id: string;
  record: TrajectoryRecord | undefined;
  role: string;
  cls: string;
  note?: string;
}): string {
  const { id, record, role, cls, note } = options;
  const chips = record
    ? [
      record.channels.join("+"),
      record.trusted ? "trusted" : "untrusted",
      ...(record.verified ? ["verified"] : []),
      `session ${record.session}`,
    ].map((c) => `<span class="mg-chip">${_esc(c)}</span>`).join("")
    : "";
  return `<li class="${cls}" data-role="${_esc(role)}" data-record="${_esc(id)}">${
    _role(role)
  }<span class="mg-id">${_esc(id)}</span>${chips}${note ? ` <b>${_esc(note)}</b>` : ""}<br>${
    record ? _long(record.text) : `<span class="mg-none">text not kept (no sidecar line)</span>`
  }</li>`;
}

function _context(
  condition: "clean" | "poisoned",
  pair: PairSummary,
): string {
  const t = pair.trajectory;
  const ids = (condition === "clean" ? t?.clean.context : t?.poisoned.context) ??
    (condition === "clean" ? pair.clean?.contextIds : pair.poisoned?.contextIds) ?? [];
  const other = (condition === "clean" ? t?.poisoned.context : t?.clean.context) ??
    (condition === "clean" ? pair.poisoned?.contextIds : pair.clean?.contextIds) ?? [];
  if (ids.length === 0) return `<span class="mg-none">empty context</span>`;
  const items = ids.map((id, slot) => {
    const changed = other[slot] !== undefined && other[slot] !== id;
    // Without a sidecar line, the rows still say whether the slot that differs is the risk's.
    const role = t?.records[id]?.role ??
      (changed && condition === "poisoned" && pair.poisoned?.riskInContext ? "risk" : "record");
    const cls = changed ? (condition === "poisoned" ? "mg-changed" : "mg-displaced") : "";
    const note = changed
      ? condition === "poisoned"
        ? `← differs from the clean context (slot ${slot + 1})`
        : `← displaced in the poisoned context`
      : undefined;
    return _recordItem({ id, record: t?.records[id], role, cls, note });
  });
  return `<ol class="mg-slots" data-condition="${condition}">${items.join("")}</ol>`;
}

function _units(trace: TrajectoryTrace): string {
  const admitted = trace.units.filter((u) => u.admitted).length;
  const rows = [...trace.units]
    .sort((a, b) => (a.rank ?? 1e9) - (b.rank ?? 1e9))
    .map((u) =>
      `<tr class="${u.admitted ? "" : "mg-out"}"><td>${u.rank ?? "–"}</td><td>${
        u.admitted ? "✓" : ""
      }</td><td>${_esc(u.channel)}${u.trusted ? "" : ", untrusted"}${
        u.verified ? ", verified" : ""
      }</td><td>${u.asserts ? `<b>states “${_esc(u.asserts)}”</b> ` : ""}${
        _esc(u.text.length > 160 ? `${u.text.slice(0, 159)}…` : u.text)
      }</td></tr>`
    ).join("");
  const answer = trace.units.filter((u) => u.admitted && u.asserts !== null);
  const states = answer.length > 0
    ? `; ${answer.length} of them state${answer.length === 1 ? "s" : ""} “${
      _esc(answer[0].asserts)
    }”`
    : "; none states an answer";
  return `<details><summary>${trace.kind === "helpful" ? "Helpful" : "Risk"} trace ${
    _esc(trace.id)
  }: ${admitted} of ${trace.units.length} units admitted${states}</summary>` +
    `<table class="mg-units"><colgroup><col class="mg-u-rank"><col class="mg-u-in"><col class="mg-u-channel"><col></colgroup><thead><tr><th>rank</th><th>in</th><th>channel</th><th>text (by rank)</th></tr></thead><tbody>${rows}</tbody></table></details>`;
}

function _writing(condition: "clean" | "poisoned", t: PairTrajectory | null): string {
  if (!t) return `<span class="mg-none">not kept</span>`;
  if (t.error !== null && t.written.length === 0) {
    return `<span class="mg-bad">failed before the agent ran: ${_esc(t.error)}</span>`;
  }
  const [helpful, risk] = [
    t.traces.find((x) => x.kind === "helpful"),
    t.traces.find((x) => x.kind === "risk"),
  ];
  const record = (kind: string) => {
    const id = t.written.find((w) => t.records[w]?.role === kind);
    return id
      ? `written as <span class="mg-id">${_esc(id)}</span>`
      : `<span class="mg-none">nothing admitted, no record</span>`;
  };
  if (condition === "clean") {
    return `${helpful ? _units(helpful) : ""}<div>Helpful record: ${record("helpful")}</div>`;
  }
  return `<div class="mg-note">Helpful trace and record: the same as clean.</div>${
    risk ? _units(risk) : ""
  }<div>Risk record: ${record("risk")}</div>`;
}

function _management(run: TrajectoryRun | undefined, policy: string): string {
  if (!run) return `<span class="mg-none">not kept</span>`;
  if (run.quarantined.length === 0) {
    return `<span class="mg-none">${_esc(policy)} quarantined nothing</span>`;
  }
  const written = run.quarantined.filter((q) => q.role !== "background");
  const background = run.quarantined.filter((q) => q.role === "background");
  const item = (q: TrajectoryRun["quarantined"][number]) =>
    `<li data-role="${_esc(q.role)}">${_role(q.role)}<span class="mg-id">${_esc(q.id)}</span>: ${
      _esc(q.reason)
    }</li>`;
  return `<ul>${written.map(item).join("")}</ul>` +
    (background.length
      ? `<details><summary>${background.length} background record${
        background.length === 1 ? "" : "s"
      } quarantined</summary><ul>${background.map(item).join("")}</ul></details>`
      : "");
}

function _messages(messages: readonly TrajectoryMessage[]): string {
  return messages.map((m) => {
    const body = m.content === null
      ? `<span class="mg-none">(no content)</span>`
      : _long(m.content, 400);
    const calls = m.toolCalls?.length
      ? `<div class="mg-note">calls ${m.toolCalls.map(_esc).join(", ")}</div>`
      : "";
    const reasoning = m.reasoning
      ? `<details><summary>reasoning (${m.reasoningChars} characters${
        (m.reasoningChars ?? 0) > m.reasoning.length ? ", first shown" : ""
      })</summary><span class="mg-text">${_esc(m.reasoning)}</span></details>`
      : "";
    const open = m.role === "system" ? "" : " open";
    return `<details class="mg-msg mg-msg-${_esc(m.role)}"${open}><summary>${_esc(m.role)}${
      m.role === "system" ? " prompt (holds the retrieved memory)" : ""
    }</summary>${reasoning}${body}${calls}</details>`;
  }).join("");
}

interface _Reading {
  read?: string[];
  records?: { id: string; read: boolean; readChance?: number; offers?: string | null }[];
  values?: {
    value: string;
    evidence: number;
    count: number;
    beliefChance: number;
    believed: boolean;
  }[];
  decision?: string;
}

function _reading(reading: unknown): string {
  const r = reading as _Reading;
  if (!r || typeof r !== "object") return "";
  const read = (r.records ?? []).map((x) =>
    `<li>${x.read ? "read" : '<span class="mg-none">skipped</span>'} <span class="mg-id">${
      _esc(x.id)
    }</span>${x.readChance !== undefined ? ` (chance ${x.readChance})` : ""}${
      x.offers ? `: ${_esc(x.offers)}` : ""
    }</li>`
  ).join("");
  const values = (r.values ?? []).map((v) =>
    `<li>“${
      _esc(v.value)
    }”: evidence ${v.evidence} from ${v.count}, believed with chance ${v.beliefChance}: <b>${
      v.believed ? "believed" : "not believed"
    }</b></li>`
  ).join("");
  return `<div class="mg-note">Offline reference agent (a simulator): its reading.</div>` +
    `<details><summary>records read</summary><ul>${read}</ul></details>` +
    `<div>Values: ${
      values ? `<ul>${values}</ul>` : `<span class="mg-none">none believed</span>`
    }</div>` +
    `<div class="mg-note">Answer from: ${_esc(r.decision ?? "?")}</div>`;
}

function _agent(condition: "clean" | "poisoned", pair: PairSummary): string {
  const run = condition === "clean" ? pair.clean : pair.poisoned;
  const t = condition === "clean" ? pair.trajectory?.clean : pair.trajectory?.poisoned;
  const said = `<div><b>Said:</b> ${_esc(_said(run))}</div>`;
  if (!t) return said;
  const detail = t.messages
    ? _messages(t.messages)
    : t.reading !== undefined
    ? _reading(t.reading)
    : "";
  return said + detail;
}

function _judge(condition: "clean" | "poisoned", pair: PairSummary): string {
  const run = condition === "clean" ? pair.clean : pair.poisoned;
  const t = condition === "clean" ? pair.trajectory?.clean : pair.trajectory?.poisoned;
  const by = run?.judgeModel ? ` <span class="mg-note">by ${_esc(run.judgeModel)}</span>` : "";
  const reason = t?.judgeReason ? `<div class="mg-note">${_esc(t.judgeReason)}</div>` : "";
  return `${_verdict(run ?? t ?? null)}${by}${reason}`;
}

/** The "what the risk trace changed" list: the risk record, where it entered, what it displaced, what the agent said. */
function _difference(pair: PairSummary): string {
  const t = pair.trajectory;
  const items: string[] = [];
  const cleanIds = t?.clean.context ?? pair.clean?.contextIds ?? [];
  const poisonedIds = t?.poisoned.context ?? pair.poisoned?.contextIds ?? [];
  const riskId = t?.written.find((w) => t.records[w]?.role === "risk");
  const risk = t?.traces.find((x) => x.kind === "risk");
  if (t && risk) {
    const admitted = risk.units.filter((u) => u.admitted).length;
    items.push(
      riskId
        ? `<b>Writing:</b> ${admitted} of ${risk.units.length} units of the risk trace were admitted and written as <span class="mg-id">${
          _esc(riskId)
        }</span>${
          t.records[riskId]?.asserts ? `, which states “${_esc(t.records[riskId].asserts)}”` : ""
        }.`
        : `<b>Writing:</b> no unit of the risk trace was admitted, so no risk record exists.`,
    );
    const q = t.poisoned.quarantined.find((x) => x.role === "risk");
    if (riskId) {
      items.push(
        q
          ? `<b>Management:</b> the policy quarantined it (${_esc(q.reason)}).`
          : `<b>Management:</b> ${_esc(pair.policy)} kept it.`,
      );
    }
  }
  const slot = poisonedIds.findIndex((id, i) => cleanIds[i] !== id);
  if (slot >= 0) {
    const displaced = cleanIds[slot];
    const text = t?.records[displaced]?.text;
    items.push(
      `<b>Retrieval:</b> the poisoned context differs in slot ${
        slot + 1
      } of ${poisonedIds.length}: <span class="mg-id">${
        _esc(poisonedIds[slot])
      }</span> took the place of ${
        t?.records[displaced]?.role ?? "the"
      } record <span class="mg-id">${_esc(displaced)}</span>${
        text ? ` (“${_esc(text.length > 80 ? `${text.slice(0, 79)}…` : text)}”)` : ""
      }.`,
    );
  } else if (pair.poisoned && pair.clean) {
    items.push(
      `<b>Retrieval:</b> the two contexts are identical${
        pair.riskExposed === false ? " (the risk record was not drawn for exposure, a− = 0)" : ""
      }${
        riskId && t?.poisoned.quarantined.some((x) => x.role === "risk")
          ? " (it was quarantined)"
          : ""
      }: any difference in the answers is not the risk record's.`,
    );
  }
  items.push(
    `<b>Agent:</b> clean said ${_esc(_said(pair.clean))} (${_verdict(pair.clean)}); poisoned said ${
      _esc(_said(pair.poisoned))
    } (${_verdict(pair.poisoned)}).`,
  );
  const hit = (b: boolean | null | undefined) => (b ? 1 : 0);
  if (pair.clean && pair.poisoned && pair.clean.error === null && pair.poisoned.error === null) {
    const asr = hit(pair.poisoned.matchesTarget) - hit(pair.clean.matchesTarget);
    const utility = hit(pair.clean.correct) - hit(pair.poisoned.correct);
    items.push(
      `<b>MID terms</b> of this pair: asr ${asr > 0 ? "+" : ""}${asr}, utility ${
        utility > 0 ? "+" : ""
      }${utility} (1 = caused by the risk trace).`,
    );
  }
  return `<section class="mg-diff"><h3>What the risk trace changed</h3><ul>${
    items.map((i) => `<li>${i}</li>`).join("")
  }</ul></section>`;
}

function _counterfactual(pair: PairSummary): string {
  const t = pair.trajectory;
  const rows = t
    ? t.ablations.map((a) => ({
      condition: a.condition,
      slot: String(a.slot + 1),
      ablated: a.ablated,
      role: a.role,
      replacement: a.replacement ?? "(none left)",
      output: a.error !== null ? `error: ${a.error}` : a.output ?? "",
      flipped: a.flipped,
    }))
    : pair.ablations.map((a) => ({
      condition: a.condition,
      slot: "",
      ablated: a.ablated,
      role: a.role,
      replacement: a.replacement ?? "(none left)",
      output: a.error !== null ? `error: ${a.error}` : a.output ?? "",
      flipped: a.flipped,
    }));
  if (rows.length === 0) return "";
  const body = rows.map((r) =>
    `<tr><td>${_esc(r.condition)}</td><td>${_esc(r.slot)}</td><td>${
      _role(r.role)
    }<span class="mg-id">${_esc(r.ablated)}</span></td><td class="mg-id">${
      _esc(r.replacement)
    }</td><td>${_esc(r.output)}</td><td>${
      r.flipped === null ? "–" : r.flipped ? '<b class="mg-bad">flipped</b>' : "same"
    }</td></tr>`
  ).join("");
  return `<h3>Record-level counterfactual: each retrieved record replaced in turn</h3>` +
    `<table class="mg-cf"><thead><tr><th>run</th><th>slot</th><th>removed</th><th>replaced by</th><th>answer</th><th>decision</th></tr></thead><tbody>${body}</tbody></table>` +
    `<p class="mg-note">“flipped”: the rerun undid the decision the trial was selected for (the attack for a poisoned run, the correct answer for a clean one).</p>`;
}

/** The evidence each value had in each run (reference agent), as a small Plot chart. */
function _evidenceChart(pair: PairSummary, document: Document): string {
  const t = pair.trajectory;
  if (!t) return "";
  const data: { value: string; run: string; evidence: number }[] = [];
  for (const condition of ["clean", "poisoned"] as const) {
    const reading = t[condition].reading as _Reading | undefined;
    for (const v of reading?.values ?? []) {
      const tag = v.value === t.answer ? " (y*)" : v.value === t.target ? " (y_adv)" : "";
      data.push({ value: `“${v.value}”${tag}`, run: condition, evidence: v.evidence });
    }
  }
  if (data.length === 0) return "";
  const rows = (d: { value: string; run: string }) => `${d.value} · ${d.run}`;
  const chart = Plot.plot({
    document,
    width: 520,
    height: 40 + 24 * data.length,
    marginLeft: 210,
    x: { label: "evidence (summed statement weight) →", grid: true },
    y: { label: null, domain: data.map(rows) },
    color: { domain: ["clean", "poisoned"], range: ["#4e79a7", "#e15759"] },
    marks: [
      Plot.barX(data, { x: "evidence", y: rows, fill: "run" }),
      Plot.text(data, {
        x: "evidence",
        y: rows,
        text: (d) => String(d.evidence),
        dx: 4,
        textAnchor: "start",
      }),
      Plot.ruleX([0]),
    ],
  });
  return `<h3>Evidence per value (the simulator's corroboration)</h3>${chart.outerHTML}`;
}

/**
 * The pair view as HTML (a `<article class="mg-pair">`; include `PAIR_VIEW_CSS` once in the
 * page). `document` is where Plot draws its chart: the browser's, or `createDocument()` from
 * `lib/figures/dom.ts` on the server.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createDocument } from "../figures/dom.ts";
 * import { pairView } from "./pair_view.ts";
 * const run = { contextIds: ["h", "b1"], output: "4", correct: true, matchesTarget: false, hedged: false, error: null,
 *   riskInContext: false, helpfulInContext: true, judgeModel: null, stopReason: null };
 * const pair = { key: "p#0", runId: "r", pairId: "p", trial: 0, instanceId: "i", agent: "a", simulated: true, dataset: "demo",
 *   attack: "minja", stage: "writing", point: "θw 0.5", policy: "UM", setting: "K 2", helpfulExposed: true, riskExposed: true,
 *   clean: run, poisoned: { ...run, contextIds: ["h", "x:minja@3"], output: "5", correct: false, matchesTarget: true, riskInContext: true },
 *   ablations: [], trajectory: null };
 * const html = pairView({ pair, document: createDocument() });
 * assert.match(html, /data-condition="poisoned"><li class="" data-role="record"[^]*data-role="risk"/);
 * assert.match(html, /slot 2 of 2/);
 * ```
 */
export function pairView(options: {
  /** The pair, with its trajectory when one was kept. */
  pair: PairSummary;
  /** The document Plot draws into. */
  document: Document;
}): string {
  const { pair, document } = options;
  const t = pair.trajectory;
  const question = t
    ? `<p class="mg-q"><b>Question:</b> ${_esc(t.query)} <b>y*</b> <span class="mg-ans mg-ystar">${
      _esc(t.answer)
    }</span> <b>y_adv</b> <span class="mg-ans mg-yadv">${_esc(t.target)}</span></p>`
    : "";
  const simulated = pair.simulated
    ? " · <b>offline reference agent: a simulator, not a real model</b>"
    : "";
  const exposure = pair.helpfulExposed === null
    ? ""
    : ` · exposure draws a+ = ${Number(pair.helpfulExposed)}, a− = ${Number(pair.riskExposed)}`;
  const missing = t
    ? ""
    : `<p class="mg-note">No trajectory was kept for this pair (the rows file has no sidecar beside it, or the sweep ran with --trajectories none): contexts show record ids only. A sweep keeps trajectories by default.</p>`;
  const row = (title: string, hint: string, clean: string, poisoned: string) =>
    `<tr><th>${title}<small>${hint}</small></th><td>${clean}</td><td>${poisoned}</td></tr>`;
  return `<article class="mg-pair" data-pair="${_esc(pair.key)}">
<h2>Instance ${_esc(pair.instanceId)} · ${_esc(pair.attack)} · ${_esc(pair.agent)}</h2>
${question}<p class="mg-meta">${_esc(pair.stage)} stage at <b>${_esc(pair.point)}</b> · ${
    _esc(pair.setting)
  } · ${_esc(pair.dataset)}${exposure} · pair <span class="mg-id">${
    _esc(pair.key)
  }</span>${simulated}</p>
${missing}${_difference(pair)}
<table class="mg-stages"><colgroup><col class="mg-stage-col"><col><col></colgroup><thead><tr><th>stage</th><th>clean run (helpful trace only)</th><th>poisoned run (helpful + risk trace)</th></tr></thead><tbody>
${row("1 Writing", "ranked units; ✓ admitted", _writing("clean", t), _writing("poisoned", t))}
${
    row(
      "2 Management",
      `policy ${_esc(pair.policy)}`,
      _management(t?.clean, pair.policy),
      _management(t?.poisoned, pair.policy),
    )
  }
${
    row(
      "3 Retrieval",
      "the context, slot by slot",
      _context("clean", pair),
      _context("poisoned", pair),
    )
  }
${row("4 Agent", "what it read and said", _agent("clean", pair), _agent("poisoned", pair))}
${row("5 Judge", "what the answer commits to", _judge("clean", pair), _judge("poisoned", pair))}
</tbody></table>
${_counterfactual(pair)}${_evidenceChart(pair, document)}
</article>`;
}
