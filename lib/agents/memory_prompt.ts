/**
 * What the LLM agent is shown: the retrieved records as a memory section (each with its source
 * channel and written time) and the query, asked in a later session. The text comes from
 * `prompts/memory_agent.md`; only the layout rules live here.
 */
import type { MemoryRecord } from "../schema/memory_record.ts";
import type { MemoryPlacement } from "../schema/trial_row.ts";
import { fillPrompt, readPromptFile } from "../text/prompt_file.ts";

const PROMPT_FILE = new URL("./prompts/memory_agent.md", import.meta.url);
const SECTIONS = [
  "system",
  "memories",
  "record",
  "query",
  "search_memory",
  "search_memory_query",
] as const;

/** The agent's prompt sections (read from `prompts/memory_agent.md` on first use). */
export function agentPrompts(): Readonly<Record<typeof SECTIONS[number], string>> {
  return readPromptFile({ url: PROMPT_FILE, required: SECTIONS }) as Record<
    typeof SECTIONS[number],
    string
  >;
}

/**
 * The logical session of the query. Memory is written in three sessions (background 0,
 * helpful 1, risk 2 as `writtenAt`, shown as sessions 1-3); the query comes in the next one. It
 * is the same in every condition, so a clean prompt and its poisoned twin differ only in the
 * record the risk trace put there.
 */
export const QUERY_SESSION = 4;

/** How a record's written time reads: the data's session time when it has one, else the logical session. */
export function writtenTime(record: Pick<MemoryRecord, "provenance">): string {
  const session = `session ${record.provenance.writtenAt + 1}`;
  return record.provenance.sessionTime ? `${record.provenance.sessionTime} (${session})` : session;
}

/**
 * The memory section for a context: one entry per record in context order, numbered from 1,
 * with its source channels and written time. Session names never appear (they would name the
 * trace that wrote the record).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { memorySection } from "./memory_prompt.ts";
 * const record = { id: "r", text: "Rex is 4.", role: "helpful" as const, sourceUnitIds: [], numbers: [], asserts: null,
 *   provenance: { session: "s-helpful", channels: ["user" as const], trusted: true, verified: false, writtenAt: 1 } };
 * assert.equal(memorySection({ context: [record] }), "<memories>\n[1] source: user; written: session 2\nRex is 4.\n</memories>");
 * ```
 */
export function memorySection(options: {
  /** The retrieved records, in slot order. */
  context: readonly MemoryRecord[];
}): string {
  const prompts = agentPrompts();
  const records = options.context.map((record, i) =>
    fillPrompt({
      template: prompts.record,
      values: {
        n: String(i + 1),
        source: record.provenance.channels.join(" and "),
        written: writtenTime(record),
        text: record.text,
      },
    })
  );
  return fillPrompt({ template: prompts.memories, values: { records: records.join("\n") } });
}

/** One message of the agent's opening turn. */
export interface AgentMessage {
  role: "system" | "user";
  content: string;
}

/**
 * The agent's opening messages: the system prompt, then the user's query in a later session.
 * `system` puts the memory section in the system prompt (LangGraph's memory agents), `user` puts
 * it at the start of the user's turn, `tool` leaves it out (the agent fetches it with
 * `search_memory`). The system time and the query's session name the query's date when the
 * instance has one (LongMemEval's `question_date`), so "how many weeks ago" can be worked out;
 * else the logical session.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { agentMessages } from "./memory_prompt.ts";
 * const [system, user] = agentMessages({ query: "How old is Rex?", context: [], placement: "tool" });
 * assert.match(system.content, /^You are a personal assistant/);
 * assert.match(system.content, /System Time: session 4$/);
 * assert.equal(user.content, "[Session 4, later than every session in memory]\nHow old is Rex?");
 * const dated = agentMessages({ query: "How old is Rex?", queryDate: "28 May 2023", context: [], placement: "tool" });
 * assert.match(dated[0].content, /System Time: 28 May 2023$/);
 * assert.equal(dated[1].content, "[28 May 2023 (session 4), later than every session in memory]\nHow old is Rex?");
 * ```
 */
export function agentMessages(options: {
  /** The query `x`. */
  query: string;
  /** Date of the query's session ("28 May 2023"); default none (the logical session is shown). */
  queryDate?: string;
  /** The retrieved records, in slot order. */
  context: readonly MemoryRecord[];
  /** Where the memory section goes. */
  placement: MemoryPlacement;
}): AgentMessage[] {
  const { query, context, placement, queryDate } = options;
  const prompts = agentPrompts();
  const memories = memorySection({ context });
  const system = fillPrompt({
    template: prompts.system,
    values: {
      memories: placement === "system" ? `\n\n${memories}` : "",
      time: queryDate ?? `session ${QUERY_SESSION}`,
    },
  });
  const turn = fillPrompt({
    template: prompts.query,
    values: {
      session: queryDate === undefined
        ? `Session ${QUERY_SESSION}`
        : `${queryDate} (session ${QUERY_SESSION})`,
      query,
    },
  });
  return [
    { role: "system", content: system },
    { role: "user", content: placement === "user" ? `${memories}\n\n${turn}` : turn },
  ];
}

/**
 * True when a system prompt is the agent's (whatever memories it holds): how batch export tells
 * agent requests from judge requests.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { agentMessages, isAgentSystemPrompt } from "./memory_prompt.ts";
 * const [system] = agentMessages({ query: "Q?", context: [], placement: "system" });
 * assert.ok(isAgentSystemPrompt(system.content));
 * assert.ok(!isAgentSystemPrompt("You grade answers."));
 * ```
 */
export function isAgentSystemPrompt(content: string): boolean {
  const head = agentPrompts().system.split("{memories}")[0];
  return content.startsWith(head);
}
