/**
 * The redaction layer: every error message and every line the kit writes (rows, stderr, logs,
 * cache values, batch import reports, notebook output) passes through `redact`, which removes
 * every configured API key, any 8+ character piece of one, and `Bearer` tokens.
 */

const MARK = "[REDACTED]";
/** Shortest piece of a key that is removed; shorter keys (`none`, `k`) are not secrets. */
const PIECE = 8;
/**
 * Keys at least this long lose every 8+ character piece; shorter ones (local placeholders such
 * as `sk-test-notebooks`, never a provider's key) are removed whole only, so their words do not
 * eat ordinary text (a path with `-notebooks-` in it).
 */
const PIECEWISE = 20;

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
 * Register a key so every later `redact` removes it (the model client registers its endpoint's
 * key; code that reads a key elsewhere registers it too). Keys shorter than 8 characters are
 * ignored: `none` or `k` are placeholders, and removing them would corrupt ordinary text.
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
 * Remove secrets from `text`: each key, every run of 8 or more characters that occurs in a key
 * (so truncated or masked forms such as `sk-proj-abcd****wxyz` lose their visible part), and
 * anything after `Bearer`. Keys are `secrets` plus every registered or key-like environment
 * variable (`OPENAI_API_KEY`, `GEMINI_API_KEY`, ...). Secrets shorter than 8 characters are
 * ignored, and ones shorter than 20 (placeholders for local servers; provider keys are longer)
 * are removed whole only.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { redact } from "./redact.ts";
 * const secrets = ["sk-0123456789abcdefghij"];
 * assert.equal(redact({ text: "bad key sk-0123456789abcdefghij", secrets }), "bad key [REDACTED]");
 * assert.equal(redact({ text: "Incorrect key sk-01234****ghij", secrets }), "Incorrect key [REDACTED]****ghij");
 * assert.equal(redact({ text: "/tmp/run-notebooks-1", secrets: ["sk-test-notebooks"] }), "/tmp/run-notebooks-1");
 * assert.equal(redact({ text: "Authorization: Bearer abc.def", secrets: [] }), "Authorization: Bearer [REDACTED]");
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
    if (secret.length < PIECEWISE) {
      for (let i = text.indexOf(secret); i !== -1; i = text.indexOf(secret, i + secret.length)) {
        covered ??= new Uint8Array(text.length);
        covered.fill(1, i, i + secret.length);
      }
      continue;
    }
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
 * import { guardConsole } from "./redact.ts";
 * guardConsole();
 * guardConsole(); // a second call changes nothing
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
