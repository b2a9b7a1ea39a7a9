/** Parse OpenAI Batch API output JSONL, line by line, with the line number in every error. */
import { z } from "zod";

/** One line of a Batch API output file. */
export const BatchOutputLine = z.object({
  id: z.string().optional(),
  custom_id: z.string().min(1),
  response: z.object({
    status_code: z.number().int(),
    request_id: z.string().optional(),
    body: z.unknown(),
  }).nullable(),
  error: z.object({ code: z.string().nullish(), message: z.string().nullish() }).nullable()
    .optional(),
});

/** The part of a chat completion the cache keeps. */
const ChatCompletionBody = z.object({
  choices: z.array(z.object({
    message: z.object({
      content: z.string().nullable().optional(),
      reasoning_content: z.string().nullish(),
      reasoning: z.string().nullish(),
    }),
    finish_reason: z.string().nullish(),
  })).min(1),
  usage: z.object({
    prompt_tokens: z.number().optional(),
    completion_tokens: z.number().optional(),
  }).nullish(),
});

/** A parsed line: a completion to cache, or a failed request to report. */
export type BatchOutcome =
  | {
    line: number;
    customId: string;
    ok: true;
    content: string;
    /** The provider's reasoning field; null when absent. */
    reasoning: string | null;
    /** `finish_reason`; a truncated (`length`) reply is cached as such and never graded. */
    stopReason: string | null;
    promptTokens: number | null;
    completionTokens: number | null;
  }
  | { line: number; customId: string; ok: false; reason: string };

function _path(issue: z.core.$ZodIssue): string {
  return issue.path.length === 0 ? "(line)" : issue.path.map(String).join(".");
}

/** The provider's error message in a failed response body (`{error: {message}}`), if any. */
function _errorMessage(body: unknown): string {
  const b = body as { error?: { message?: unknown } | string; message?: unknown } | null;
  const message = typeof b?.error === "string"
    ? b.error
    : typeof b?.error?.message === "string"
    ? b.error.message
    : typeof b?.message === "string"
    ? b.message
    : "";
  return message.replace(/\s+/g, " ").trim().slice(0, 300);
}

function _fail(line: number, what: string): never {
  throw new TypeError(`batch output line ${line}: ${what}`);
}

/**
 * Parse every line of a Batch API output file (blank lines ignored). A line that is not JSON or
 * not of the Batch output shape throws a TypeError naming the line number and the field; a line
 * whose request failed (an `error`, a non-200 status, or no message content) is returned with
 * `ok: false` and a reason, to be reported and skipped.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseBatchOutput } from "./batch_output_line.ts";
 * const ok = { custom_id: "k", response: { status_code: 200, body: { choices: [{ message: { content: "hi" } }] } }, error: null };
 * assert.equal(parseBatchOutput({ text: JSON.stringify(ok) })[0].ok, true);
 * assert.throws(() => parseBatchOutput({ text: '{"custom_id": 3}' }), /line 1: custom_id/);
 * ```
 */
export function parseBatchOutput(options: {
  /** The file's text. */
  text: string;
}): BatchOutcome[] {
  const outcomes: BatchOutcome[] = [];
  options.text.split("\n").forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === "") return;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch (e) {
      _fail(line, `not JSON (${(e as Error).message})`);
    }
    const parsed = BatchOutputLine.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      _fail(line, `${_path(issue)}: ${issue.message}`);
    }
    const { custom_id: customId, response, error } = parsed.data;
    if (error) {
      outcomes.push({
        line,
        customId,
        ok: false,
        reason: `error ${error.code ?? ""} ${error.message ?? ""}`.trim(),
      });
      return;
    }
    if (!response) _fail(line, "response: expected an object when error is null, got null");
    if (response.status_code !== 200) {
      const message = _errorMessage(response.body);
      outcomes.push({
        line,
        customId,
        ok: false,
        reason: `HTTP ${response.status_code}${message ? `: ${message}` : ""}`,
      });
      return;
    }
    const body = ChatCompletionBody.safeParse(response.body);
    if (!body.success) {
      const issue = body.error.issues[0];
      _fail(line, `response.body.${_path(issue)}: ${issue.message}`);
    }
    const { message, finish_reason } = body.data.choices[0];
    const content = message.content;
    if (typeof content !== "string") {
      outcomes.push({ line, customId, ok: false, reason: "response has no message content" });
      return;
    }
    outcomes.push({
      line,
      customId,
      ok: true,
      content,
      reasoning: message.reasoning_content || message.reasoning || null,
      stopReason: finish_reason ?? null,
      promptTokens: body.data.usage?.prompt_tokens ?? null,
      completionTokens: body.data.usage?.completion_tokens ?? null,
    });
  });
  return outcomes;
}
