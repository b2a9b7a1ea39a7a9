/**
 * The redaction layer: every error message and every line the kit writes (rows, stderr, logs,
 * cache values, manifests, batch import reports, notebook output) passes through `redact`, which
 * removes every configured secret of 8 or more characters and any 8+ character piece of one,
 * the credentials of a URL (`http://user:pass@host`), `Bearer` tokens, and keys a provider echoes
 * that the kit was never given (shaped like a provider's key, or after "API key provided:").
 */

const MARK = "[REDACTED]";
/** Shortest secret, and shortest piece of one, that is removed (`none`, `k` are placeholders). */
const PIECE = 8;

/** `scheme://userinfo@`: the user and password of a URL. */
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"'<>]+@/gi;

/**
 * Keys a provider may echo whole or masked (`sk-proj-abcd****wxyz`) when the kit does not know
 * them (a batch results file imported without its key in the environment): OpenAI-style `sk-`
 * keys (OpenAI, Anthropic, DeepSeek, Qwen, OpenRouter), Google `AIza`, xAI `xai-`, Groq `gsk_`,
 * Hugging Face `hf_`, and whatever follows "API key provided:".
 */
const KEY_SHAPES = [
  /\bsk-[A-Za-z0-9_*-]{8,}/g,
  /\bAIza[0-9A-Za-z_*-]{20,}/g,
  /\bxai-[A-Za-z0-9_*-]{16,}/g,
  /\bgsk_[A-Za-z0-9_*]{16,}/g,
  /\bhf_[A-Za-z0-9_*]{16,}/g,
  /(?<=\bapi[ _-]?key provided:?\s*)[^\s.,;()"'[\]]{4,}/gi,
];

const _registered = new Set<string>();
let _fromEnv: string[] | undefined;
let _grams = new Map<string, Set<string>>();

/** Names of environment variables that hold keys: the catalog's and any `*_API_KEY`/`*_TOKEN`. */
const KEY_VARIABLE = /(^|_)(API_KEY|APIKEY|TOKEN|SECRET|SECRET_KEY|ACCESS_KEY)$/i;

function _envSecrets(): string[] {
  if (_fromEnv === undefined) {
    try {
      _fromEnv = Object.entries(Deno.env.toObject())
        .filter(([name, value]) => KEY_VARIABLE.test(name) && value.length >= PIECE)
        .map(([, value]) => value);
    } catch {
      // No env permission: only registered keys are known.
      _fromEnv = [];
    }
  }
  return _fromEnv;
}

/**
 * Register a secret so every later `redact` removes it (the model client registers its
 * endpoint's key; code that reads a key or password elsewhere registers it too). Secrets shorter
 * than 8 characters are ignored: `none` or `k` are placeholders, and removing them would corrupt
 * ordinary text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { redact, registerSecret } from "./redact.ts";
 * registerSecret({ secret: "sk-registered-example-0001" });
 * assert.equal(redact({ text: "key sk-registered-example-0001" }), "key [REDACTED]");
 * ```
 */
export function registerSecret(options: {
  /** The key's value. */
  secret: string;
}): void {
  if (options.secret.length >= PIECE) _registered.add(options.secret);
}

/** Every key `redact` removes: registered ones and key-like environment variables. */
export function knownSecrets(): string[] {
  return [...new Set([..._registered, ..._envSecrets()])];
}

function _gramsOf(secret: string): Set<string> {
  let grams = _grams.get(secret);
  if (!grams) {
    grams = new Set();
    for (let i = 0; i + PIECE <= secret.length; i++) grams.add(secret.slice(i, i + PIECE));
    if (_grams.size > 256) _grams = new Map();
    _grams.set(secret, grams);
  }
  return grams;
}

/**
 * Remove secrets from `text`: each configured secret of 8 or more characters and every run of 8
 * or more characters that occurs in one (so truncated or masked forms such as
 * `sk-proj-abcd****wxyz` lose their visible part), URL credentials (`http://user:pass@host`
 * becomes `http://[REDACTED]@host`), anything after `Bearer`, and key-shaped tokens a provider
 * echoes (`sk-...`, `AIza...`, the token after "API key provided:"). Secrets are `secrets` plus
 * every registered or key-like environment variable (`OPENAI_API_KEY`, `GEMINI_API_KEY`, ...).
 * A short secret (8-19 characters, a local placeholder) also loses its pieces: a word of ordinary
 * text that shares 8 characters with it goes too, the price of never leaking a piece of a key.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { redact } from "./redact.ts";
 * const secrets = ["sk-0123456789abcdefghij"];
 * assert.equal(redact({ text: "bad key sk-0123456789abcdefghij", secrets }), "bad key [REDACTED]");
 * assert.equal(redact({ text: "Incorrect key sk-01234****ghij", secrets }), "Incorrect key [REDACTED]****ghij");
 * assert.equal(redact({ text: "key x9Q2-short (x9Q2-sho****)", secrets: ["x9Q2-short-k3y"] }), "key [REDACTED] ([REDACTED]****)");
 * assert.equal(redact({ text: "--base-url http://ann:pa55w0rd@host:8000/v1", secrets: [] }), "--base-url http://[REDACTED]@host:8000/v1");
 * assert.equal(redact({ text: "Authorization: Bearer abc.def", secrets: [] }), "Authorization: Bearer [REDACTED]");
 * assert.equal(redact({ text: "Incorrect API key provided: q1w2e3r4t5y6", secrets: [] }), "Incorrect API key provided: [REDACTED]");
 * ```
 */
export function redact(options: {
  /** Text that may contain a secret. */
  text: string;
  /** Extra secrets to remove besides the known ones; default none. */
  secrets?: readonly string[];
}): string {
  const { text } = options;
  const secrets = [...knownSecrets(), ...(options.secrets ?? [])].filter((s) => s.length >= PIECE);
  // Mark every character covered by a piece of a secret, then replace each covered run once.
  let covered: Uint8Array | undefined;
  for (const secret of secrets) {
    const grams = _gramsOf(secret);
    for (let i = 0; i + PIECE <= text.length; i++) {
      if (!grams.has(text.slice(i, i + PIECE))) continue;
      let end = i + PIECE;
      while (end < text.length && secret.includes(text.slice(i, end + 1))) end++;
      covered ??= new Uint8Array(text.length);
      covered.fill(1, i, end);
      i = end - 1;
    }
  }
  let out = text;
  if (covered) {
    out = "";
    for (let i = 0; i < text.length;) {
      if (covered[i]) {
        while (i < text.length && covered[i]) i++;
        out += MARK;
      } else {
        out += text[i++];
      }
    }
  }
  out = out.replace(URL_CREDENTIALS, `$1${MARK}@`);
  for (const shape of KEY_SHAPES) out = out.replace(shape, MARK);
  return out.replace(/Bearer\s+(?!\[REDACTED\])[A-Za-z0-9._~+/=*-]+/g, `Bearer ${MARK}`);
}

const _consoleMethods = ["log", "info", "warn", "error", "debug", "trace"] as const;
let _consoleGuarded = false;

/**
 * Route console output through `redact`: arguments that would print a secret (strings, errors,
 * objects) are printed as their redacted text; all others are passed through untouched. Library
 * logs (SDK warnings, a system's own logging), CLI reports and notebook cell output go through
 * the console, so this is the layer between them and the terminal. Idempotent.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { guardConsole, registerSecret } from "./redact.ts";
 * const printed: unknown[] = [];
 * console.log = (...args: unknown[]) => void printed.push(...args); // stands in for the terminal
 * registerSecret({ secret: "sk-example-key-0001" });
 * guardConsole();
 * guardConsole(); // a second call changes nothing
 * console.log("using sk-example-key-0001", 42, { key: "sk-example-key-0001" });
 * assert.deepEqual(printed, ["using [REDACTED]", 42, '{ key: "[REDACTED]" }']);
 * ```
 */
export function guardConsole(): void {
  if (_consoleGuarded) return;
  _consoleGuarded = true;
  for (const method of _consoleMethods) {
    const original = console[method].bind(console);
    console[method] = (...args: unknown[]) => {
      original(...args.map((a) => {
        const text = typeof a === "string" ? a : Deno.inspect(a);
        const clean = redact({ text });
        return clean === text ? a : clean;
      }));
    };
  }
}

/**
 * Redact an error in place (message and stack) and return it, for errors about to be printed
 * or rethrown to a sink the kit does not control (Deno's uncaught-error report, a notebook).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { redactError } from "./redact.ts";
 * const error = new Error("401: key sk-abcdefgh123456789012 is invalid");
 * const e = redactError({ error, secrets: ["sk-abcdefgh123456789012"] });
 * assert.equal(e.message, "401: key [REDACTED] is invalid");
 * ```
 */
export function redactError<E>(options: {
  /** The error (anything thrown; non-errors are returned as they are). */
  error: E;
  /** Extra secrets besides the known ones; default none. */
  secrets?: readonly string[];
}): E {
  const { error, secrets } = options;
  if (error instanceof Error) {
    error.message = redact({ text: error.message, secrets });
    if (error.stack) error.stack = redact({ text: error.stack, secrets });
  }
  return error;
}
