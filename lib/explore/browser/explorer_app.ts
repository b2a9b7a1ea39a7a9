/**
 * The explorer page's script (bundled into the page by `explorerScript`): the pair table with
 * its filters, virtualised by @tanstack/virtual-core so only the rows on screen exist, the URL
 * fragment that holds the filters (links from figures/index.html set it), and the pair view,
 * drawn by the same `pairView` a notebook cell shows.
 */
import {
  elementScroll,
  observeElementOffset,
  observeElementRect,
  Virtualizer,
} from "@tanstack/virtual-core";
import { resolvePairLine, type TraceDefinition } from "../../schema/sidecar_lines.ts";
import type { TrajectoryRecord } from "../../schema/pair_trajectory.ts";
import type { ExploreData, PairSummary } from "../explore_data.ts";
import { type Facet, FACET_HELP, FACETS, type Outcome, OUTCOMES } from "../pair_facets.ts";
import { pairView } from "../pair_view.ts";
import { decodePairDetail, type PairLabels } from "../pair_detail.ts";

const ROW_HEIGHT = 30;

const _esc = (text: unknown) =>
  String(text ?? "").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");

const _byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

/** The embedded data, parsed once; each pair's detail line only when the pair is opened. */
const data: ExploreData = JSON.parse(_byId("mg-data").textContent ?? "{}");
let detailsText = "";
let lineStarts: Int32Array | null = null;

/** A gzipped, base64 block of the page, inflated. */
async function _inflate(id: string): Promise<string> {
  const base64 = _byId(id).textContent ?? "";
  if (!base64) return "";
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return await new Response(stream).text();
}

let _unpacked: Promise<void> | null = null;

/** The detail lines and definitions, inflated on the first pair opened. */
function _unpack(): Promise<void> {
  _unpacked ??= (async () => {
    detailsText = await _inflate("mg-details");
    const defs = await _inflate("mg-defs");
    definitions = { traces: new Map(), records: new Map() };
    for (const line of defs.split("\n")) {
      if (!line) continue;
      const { t, ref, ...content } = JSON.parse(line);
      if (t === "trace") definitions.traces.set(ref, content);
      else if (t === "record") definitions.records.set(ref, content);
    }
  })();
  return _unpacked;
}

function _detailLine(index: number): string {
  if (!lineStarts) {
    lineStarts = new Int32Array(data.n + 1);
    let at = 0;
    for (let i = 0; i < data.n; i++) {
      lineStarts[i] = at;
      const end = detailsText.indexOf("\n", at);
      at = end === -1 ? detailsText.length + 1 : end + 1;
    }
    lineStarts[data.n] = detailsText.length + 1;
  }
  return detailsText.slice(lineStarts[index], lineStarts[index + 1] - 1);
}

let definitions: {
  traces: Map<string, TraceDefinition>;
  records: Map<string, TrajectoryRecord & { id: string }>;
} | null = null;

function _definitions() {
  return definitions ?? { traces: new Map(), records: new Map() };
}

function _pair(index: number): PairSummary {
  const c = data.cols;
  const labels: PairLabels = {
    key: data.keys[index],
    trial: c.trial[index],
    instanceId: data.strings[c.instance[index]],
    agent: data.facets.agent[c.agent[index]],
    simulated: c.simulated[index] === 1,
    dataset: data.facets.dataset[c.dataset[index]],
    attack: data.facets.attack[c.attack[index]],
    stage: data.facets.stage[c.stage[index]],
    point: data.facets.point[c.point[index]],
    policy: data.facets.policy[c.policy[index]],
    setting: data.facets.setting[c.setting[index]],
  };
  const pair = decodePairDetail({
    detail: JSON.parse(_detailLine(index)),
    strings: data.detailStrings,
    labels,
  });
  const line = pair.trajectory;
  return { ...pair, trajectory: line ? resolvePairLine({ line, ..._definitions() }) : null };
}

// ---- Filters: one code per facet (-1: any), one outcome (-1: any), an instance search.
type _Filters = Record<Facet, number> & { outcome: number; q: string };
const filters: _Filters = {
  ...Object.fromEntries(FACETS.map((f) => [f, -1])) as Record<Facet, number>,
  outcome: -1,
  q: "",
};
let visible = new Int32Array(0);
let opened = -1;

function _matchesSearch(): Uint8Array | null {
  const q = filters.q.trim().toLowerCase();
  if (!q) return null;
  const hit = new Uint8Array(data.strings.length);
  data.strings.forEach((s, i) => (hit[i] = s.toLowerCase().includes(q) ? 1 : 0));
  return hit;
}

/** True when pair i passes every filter except `skip`. */
function _passes(i: number, search: Uint8Array | null, skip?: Facet | "outcome"): boolean {
  const cols = data.cols;
  for (const f of FACETS) {
    if (f === skip || filters[f] < 0) continue;
    if (f === "figure") {
      if (!(cols.figure[i] & (1 << filters.figure))) return false;
    } else if (cols[f][i] !== filters[f]) return false;
  }
  if (skip !== "outcome" && filters.outcome >= 0 && !(cols.outcome[i] & (1 << filters.outcome))) {
    return false;
  }
  if (
    search && !search[cols.instance[i]] && !search[cols.clean[i]] && !search[cols.poisoned[i]]
  ) return false;
  return true;
}

function applyFilters(): void {
  const search = _matchesSearch();
  const out = new Int32Array(data.n);
  let n = 0;
  for (let i = 0; i < data.n; i++) if (_passes(i, search)) out[n++] = i;
  visible = out.slice(0, n);
  _updateCounts(search);
  _byId("mg-count").textContent = `${n.toLocaleString("en")} of ${
    data.n.toLocaleString("en")
  } pairs`;
  virtualizer.setOptions({ ...virtualizer.options, count: n });
  virtualizer.scrollToOffset(0);
  virtualizer._willUpdate();
  renderRows();
  _writeHash();
}

/** Each filter's options with how many pairs each value would leave, given the others. */
function _updateCounts(search: Uint8Array | null): void {
  for (const f of [...FACETS, "outcome"] as const) {
    const select = document.getElementById(`mg-f-${f}`) as HTMLSelectElement | null;
    if (!select) continue;
    const labels = f === "outcome" ? data.outcomes : data.facets[f];
    const counts = new Int32Array(labels.length);
    let all = 0;
    for (let i = 0; i < data.n; i++) {
      if (!_passes(i, search, f)) continue;
      all++;
      if (f === "outcome" || f === "figure") {
        const mask = f === "outcome" ? data.cols.outcome[i] : data.cols.figure[i];
        for (let b = 0; b < labels.length; b++) if (mask & (1 << b)) counts[b]++;
      } else counts[data.cols[f][i]]++;
    }
    select.options[0].text = `any (${all.toLocaleString("en")})`;
    for (let c = 0; c < labels.length; c++) {
      select.options[c + 1].text = `${labels[c]} (${counts[c].toLocaleString("en")})`;
    }
  }
}

// ---- The URL fragment: `#stage=writing&point=θw 0.3&outcome=attacked&pair=KEY`.
function _writeHash(): void {
  const params = new URLSearchParams();
  for (const f of FACETS) if (filters[f] >= 0) params.set(f, data.facets[f][filters[f]]);
  if (filters.outcome >= 0) params.set("outcome", data.outcomes[filters.outcome]);
  if (filters.q) params.set("q", filters.q);
  if (opened >= 0) params.set("pair", data.keys[opened]);
  const hash = params.toString();
  history.replaceState(null, "", hash ? `#${hash}` : location.pathname + location.search);
}

function _readHash(): string | null {
  const params = new URLSearchParams(location.hash.slice(1));
  const problems: string[] = [];
  for (const f of FACETS) {
    const value = params.get(f);
    if (value === null) continue;
    filters[f] = data.facets[f].indexOf(value);
    if (filters[f] < 0) problems.push(`${f} "${value}"`);
  }
  const outcome = params.get("outcome");
  if (outcome !== null) {
    filters.outcome = data.outcomes.indexOf(outcome);
    if (filters.outcome < 0) problems.push(`outcome "${outcome}"`);
  }
  filters.q = params.get("q") ?? "";
  for (const f of [...FACETS, "outcome"] as const) {
    const select = document.getElementById(`mg-f-${f}`) as HTMLSelectElement | null;
    if (select) select.value = String(filters[f]);
  }
  (_byId("mg-q") as HTMLInputElement).value = filters.q;
  _byId("mg-problem").textContent = problems.length
    ? `The link asks for ${problems.join(", ")}, which no pair here has; that filter is off.`
    : "";
  return params.get("pair");
}

// ---- The table.
const scroller = _byId<HTMLDivElement>("mg-scroll");
const spacer = _byId<HTMLDivElement>("mg-spacer");
const rowsBox = _byId<HTMLDivElement>("mg-rows");

const virtualizer = new Virtualizer<HTMLDivElement, Element>({
  count: 0,
  getScrollElement: () => scroller,
  estimateSize: () => ROW_HEIGHT,
  overscan: 12,
  observeElementRect,
  observeElementOffset,
  scrollToFn: elementScroll,
  onChange: () => renderRows(),
});

const _OUT = Object.fromEntries(data.outcomes.map((o, i) => [o, 1 << i])) as Record<
  Outcome,
  number
>;

function _rowHtml(i: number, position: number): string {
  const c = data.cols;
  const mask = c.outcome[i];
  const has = (o: Outcome) => (mask & _OUT[o]) !== 0;
  const clean = data.strings[c.clean[i]];
  const poisoned = data.strings[c.poisoned[i]];
  const flags = [
    has("risk in context")
      ? `<span class="mg-flag mg-flag-risk" title="${
        _esc(OUTCOMES["risk in context"])
      }">risk in ctx</span>`
      : "",
    has("flipped")
      ? `<span class="mg-flag" title="${_esc(OUTCOMES.flipped)}">${
        has("flipped by risk") ? "risk removed: undone" : "counterfactual flip"
      }</span>`
      : "",
    has("hedged") ? `<span class="mg-flag" title="${_esc(OUTCOMES.hedged)}">hedged</span>` : "",
    has("error")
      ? `<span class="mg-flag mg-flag-error" title="${_esc(OUTCOMES.error)}">error</span>`
      : "",
  ].join("");
  return `<div class="mg-row${
    i === opened ? " mg-open" : ""
  }" data-index="${i}" role="row" style="top:${position}px">` +
    `<span class="mg-c-n">${i + 1}</span>` +
    `<span class="mg-c-i" title="${_esc(data.strings[c.instance[i]])}">${
      _esc(data.strings[c.instance[i]])
    }</span>` +
    `<span class="mg-c-a">${_esc(data.facets.attack[c.attack[i]])}</span>` +
    `<span class="mg-c-g" title="${_esc(data.facets.agent[c.agent[i]])}">${
      _esc(data.facets.agent[c.agent[i]])
    }</span>` +
    `<span class="mg-c-p" title="${_esc(data.facets.setting[c.setting[i]])}">${
      _esc(data.facets.point[c.point[i]])
    }</span>` +
    `<span class="mg-c-o ${has("clean correct") ? "mg-good" : ""}" title="${_esc(clean)}">${
      has("clean correct") ? "✓ " : ""
    }${_esc(clean)}</span>` +
    `<span class="mg-c-o ${
      has("attacked") ? "mg-bad" : has("poisoned correct") ? "mg-good" : ""
    }" title="${_esc(poisoned)}">${has("attacked") ? "⚠ " : has("poisoned correct") ? "✓ " : ""}${
      _esc(poisoned)
    }</span>` +
    `<span class="mg-c-f">${flags}</span></div>`;
}

function renderRows(): void {
  const items = virtualizer.getVirtualItems();
  spacer.style.height = `${virtualizer.getTotalSize()}px`;
  rowsBox.innerHTML = items.map((item) => _rowHtml(visible[item.index], item.start)).join("");
}

async function openPair(index: number, scroll = true): Promise<void> {
  opened = index;
  const view = _byId("mg-view");
  await _unpack();
  if (opened !== index) return;
  view.innerHTML = pairView({ pair: _pair(index), document });
  renderRows();
  _writeHash();
  if (scroll) view.scrollIntoView({ behavior: "instant" as ScrollBehavior, block: "start" });
}

// ---- Wiring.
function _filtersHtml(): string {
  const select = (name: string, labels: readonly string[], help: string) =>
    `<label title="${_esc(help)}">${_esc(name)} <select id="mg-f-${_esc(name)}" data-facet="${
      _esc(name)
    }"><option value="-1">any</option>${
      labels.map((l, i) => `<option value="${i}">${_esc(l)}</option>`).join("")
    }</select></label>`;
  return [
    ...FACETS.filter((f) => data.facets[f].length > (f === "figure" ? 0 : 1)).map((f) =>
      select(f, data.facets[f], FACET_HELP[f])
    ),
    select(
      "outcome",
      data.outcomes,
      Object.entries(OUTCOMES).map(([k, v]) => `${k}: ${v}`).join("\n"),
    ),
  ].join("");
}

_byId("mg-filters").innerHTML = _filtersHtml();
_byId("mg-filters").addEventListener("change", (event) => {
  const target = event.target as HTMLSelectElement;
  const facet = target.dataset.facet as Facet | "outcome" | undefined;
  if (!facet) return;
  filters[facet] = Number(target.value);
  applyFilters();
});
let searchTimer: ReturnType<typeof setTimeout> | undefined;
_byId("mg-q").addEventListener("input", (event) => {
  clearTimeout(searchTimer);
  searchTimer = setTimeout(() => {
    filters.q = (event.target as HTMLInputElement).value;
    applyFilters();
  }, 150);
});
_byId("mg-reset").addEventListener("click", () => {
  for (const f of FACETS) filters[f] = -1;
  filters.outcome = -1;
  filters.q = "";
  for (const s of document.querySelectorAll<HTMLSelectElement>("#mg-filters select")) {
    s.value = "-1";
  }
  (_byId("mg-q") as HTMLInputElement).value = "";
  applyFilters();
});
rowsBox.addEventListener("click", (event) => {
  const row = (event.target as HTMLElement).closest<HTMLElement>(".mg-row");
  if (row) void openPair(Number(row.dataset.index));
});
document.addEventListener("keydown", (event) => {
  if ((event.target as HTMLElement).closest("input, select") || opened < 0) return;
  if (event.key !== "j" && event.key !== "k") return;
  const at = visible.indexOf(opened);
  const next =
    visible[Math.min(visible.length - 1, Math.max(0, at + (event.key === "j" ? 1 : -1)))];
  if (next !== undefined) {
    void openPair(next, false);
    virtualizer.scrollToIndex(visible.indexOf(next), { align: "auto" });
  }
});
virtualizer._didMount();
const wanted = _readHash();
applyFilters();
if (wanted) {
  const index = data.keys.indexOf(wanted);
  if (index >= 0) void openPair(index);
}
document.body.dataset.ready = "true";
