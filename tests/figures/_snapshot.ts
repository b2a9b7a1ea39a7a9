/** Named SVG snapshots: numbers rounded, generated ids renumbered; a mismatch writes NAME-changed.svg. */
import assert from "node:assert/strict";
import { standaloneSvg } from "../../lib/figures/export_figure.ts";

const DIR = new URL("./__snapshots__/", import.meta.url);

/** Normalize an SVG so snapshots survive float noise and generated ids. */
export function normalizeSvg(svg: string): string {
  const ids = new Map<string, string>();
  return svg
    .replace(/plot-[0-9a-f]{6}/g, "plot-ID")
    .replace(/\b(plot-clip-\d+|plot-[a-z]+-\d+)\b/g, (id) => {
      if (!ids.has(id)) ids.set(id, `id-${ids.size + 1}`);
      return ids.get(id)!;
    })
    .replace(/-?\d+\.\d+/g, (n) => String(Math.round(Number(n) * 10) / 10))
    .replace(/></g, ">\n<");
}

/** Compare a figure with its golden SVG (write it when UPDATE_SNAPSHOTS=1). */
export async function assertSnapshot(name: string, figure: Element): Promise<void> {
  const actual = normalizeSvg(standaloneSvg(figure));
  const golden = new URL(`${name}.svg`, DIR);
  const changed = new URL(`${name}-changed.svg`, DIR);
  if (Deno.env.get("UPDATE_SNAPSHOTS") === "1") {
    await Deno.writeTextFile(golden, actual);
    await Deno.remove(changed).catch(() => {});
    return;
  }
  let expected: string;
  try {
    expected = await Deno.readTextFile(golden);
  } catch {
    throw new Error(
      `No golden snapshot ${golden.pathname}; run with UPDATE_SNAPSHOTS=1 to write it`,
    );
  }
  if (actual !== expected) {
    await Deno.writeTextFile(changed, actual);
    assert.fail(`Figure ${name} differs from its snapshot; see ${changed.pathname}`);
  }
  await Deno.remove(changed).catch(() => {});
}

/** Small fixed per-agent summary rows for a numeric x column. */
export function fixtureRows(
  x: string,
  values: readonly (number | string)[],
  extra: Record<string, unknown> = {},
): Record<string, unknown>[] {
  const rows: Record<string, unknown>[] = [];
  ["a", "b", "c"].forEach((agent, ai) => {
    for (const attack of ["minja", "sleeper"]) {
      values.forEach((v, i) => {
        const t = i / Math.max(1, values.length - 1);
        rows.push({
          agent,
          dataset: "demo",
          attack,
          ...extra,
          [x]: v,
          cleanUtility: 0.1 + 0.5 * t + 0.05 * ai,
          poisonedUtility: 0.4 - 0.2 * t + 0.03 * ai,
          asr: 0.05 + 0.5 * t * t + 0.04 * ai,
          midAsr: 0.3 * t,
          midAsrLo: 0.3 * t - 0.1,
          midAsrHi: 0.3 * t + 0.1,
          midUtility: 0.2 * t,
          midUtilityLo: 0.2 * t - 0.08,
          midUtilityHi: 0.2 * t + 0.08,
        });
      });
    }
  });
  return rows;
}
