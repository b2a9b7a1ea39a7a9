/**
 * Prompt files: the agent's and the judge's prompts live as readable Markdown under lib/ (so a
 * paper can cite them) and are read at run time. A file holds named sections (`## name` on a
 * line of its own); a leading `<!-- ... -->` block is a note for readers (source, license) and is
 * never sent.
 */

/** Sections of one prompt file, by name, in file order. */
export type PromptSections = Readonly<Record<string, string>>;

const _cache = new Map<string, PromptSections>();

/**
 * Parse prompt-file text into sections. A section's text runs from the line after its heading
 * to the line before the next heading, with leading and trailing blank lines removed; the
 * newlines inside it are kept exactly.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parsePromptSections } from "./prompt_file.ts";
 * const text = "<!-- source: ours -->\n## system\nBe brief.\n\n## user\nQ: {question}\n";
 * assert.deepEqual(parsePromptSections({ text, label: "demo" }), { system: "Be brief.", user: "Q: {question}" });
 * assert.throws(() => parsePromptSections({ text: "no heading", label: "demo" }), /demo: text before the first "## name" heading/);
 * ```
 */
export function parsePromptSections(options: {
  /** The file's text. */
  text: string;
  /** Names the file in errors. */
  label: string;
}): PromptSections {
  const { label } = options;
  const text = options.text.replace(/^\s*<!--[\s\S]*?-->/, "");
  const sections: Record<string, string> = {};
  let name: string | null = null;
  let lines: string[] = [];
  const close = () => {
    if (name !== null) sections[name] = lines.join("\n").replace(/^\n+|\s+$/g, "");
  };
  for (const line of text.split("\n")) {
    const heading = /^## ([\w-]+)\s*$/.exec(line);
    if (heading) {
      close();
      name = heading[1];
      if (name in sections) throw new RangeError(`${label}: section "${name}" appears twice`);
      lines = [];
    } else if (name === null) {
      if (line.trim() !== "") {
        throw new RangeError(
          `${label}: text before the first "## name" heading, got ${JSON.stringify(line)}`,
        );
      }
    } else {
      lines.push(line);
    }
  }
  close();
  return sections;
}

/**
 * Read a prompt file (once per process) and return its sections; `required` names the sections
 * the caller uses, so a missing one fails on load, not mid-run.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readPromptFile } from "./prompt_file.ts";
 * const path = await Deno.makeTempFile({ suffix: ".md" });
 * await Deno.writeTextFile(path, "## system\nHello {name}.\n");
 * const url = new URL(`file://${path}`);
 * assert.equal(readPromptFile({ url, required: ["system"] }).system, "Hello {name}.");
 * assert.throws(() => readPromptFile({ url, required: ["user"] }), /has no "## user" section/);
 * await Deno.remove(path);
 * ```
 */
export function readPromptFile(options: {
  /** The file (e.g. `new URL("./prompts/judge.md", import.meta.url)`). */
  url: URL;
  /** Section names that must be present; default none. */
  required?: readonly string[];
}): PromptSections {
  const key = options.url.href;
  let sections = _cache.get(key);
  if (!sections) {
    const text = Deno.readTextFileSync(options.url);
    sections = parsePromptSections({ text, label: options.url.pathname });
    _cache.set(key, sections);
  }
  for (const name of options.required ?? []) {
    if (!(name in sections)) {
      throw new RangeError(`${options.url.pathname}: has no "## ${name}" section`);
    }
  }
  return sections;
}

/**
 * Fill `{name}` placeholders. Every placeholder must have a value and every value a
 * placeholder, so a renamed field fails loudly instead of sending a literal `{name}`. Values are
 * inserted as they are (a value's own braces are not expanded).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fillPrompt } from "./prompt_file.ts";
 * assert.equal(fillPrompt({ template: "Q: {q} ({q})", values: { q: "a {b}" } }), "Q: a {b} (a {b})");
 * assert.throws(() => fillPrompt({ template: "Q: {q}", values: {} }), /no value for \{q\}/);
 * assert.throws(() => fillPrompt({ template: "Q", values: { q: "x" } }), /no \{q\} placeholder/);
 * ```
 */
export function fillPrompt(options: {
  /** Template text with `{name}` placeholders (names are letters, digits and `_`). */
  template: string;
  /** A value per placeholder. */
  values: Readonly<Record<string, string>>;
}): string {
  const { template, values } = options;
  const used = new Set<string>();
  const out = template.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (!Object.hasOwn(values, name)) {
      throw new RangeError(`Cannot fill prompt: no value for {${name}}`);
    }
    used.add(name);
    return values[name];
  });
  for (const name of Object.keys(values)) {
    if (!used.has(name)) throw new RangeError(`Cannot fill prompt: no {${name}} placeholder`);
  }
  return out;
}
