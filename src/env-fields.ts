// Environment variables as zod fields, and the one line a wrong value is refused with. Every field takes
// the variable's raw text (unset or blank: its default) and carries the rule its error states:
// `PORT must be a whole number from 0 to 65535 (got "abc")`. A URL that may hold a password is quoted by
// its scheme only.
import { z } from "zod";

interface Rule {
  /** What the value must be, completing "NAME must be …". */
  rule: string;
  /** Said after the value, for a way out ("leave it unset for …"). */
  hint?: string;
  /** The value may hold a password: only its scheme is quoted. */
  secret?: boolean;
}

const rules = z.registry<Rule>();

/** Unset and blank are the same: the default. */
const unsetIfBlank = (value: unknown) =>
  typeof value === "string" && value.trim() === "" ? undefined : value;

const trimmed = (value: unknown) => (typeof value === "string" ? value.trim() || undefined : value);

export function wholeNumber(fallback: number, min: number, max?: number) {
  const number = z.coerce.number().int().min(min);
  const rule = max === undefined ? `a whole number >= ${min}` : `a whole number from ${min} to ${max}`;
  return z
    .preprocess(unsetIfBlank, (max === undefined ? number : number.max(max)).default(fallback))
    .register(rules, { rule });
}

/** true or 1, false or 0; unset is false. */
export function flag() {
  return z
    .preprocess(unsetIfBlank, z.enum(["true", "1", "false", "0"]).default("false"))
    .transform((value) => value === "true" || value === "1")
    .register(rules, { rule: "true or false" });
}

/** One of `choices`, case-insensitive; unset is `fallback`. */
export function oneOf<const Choice extends string>(
  choices: readonly [Choice, ...Choice[]],
  fallback: Choice,
) {
  return z
    .preprocess((value) => {
      const given = unsetIfBlank(value);
      return typeof given === "string" ? given.trim().toLowerCase() : given;
    }, z.enum(choices).default(fallback))
    .register(rules, { rule: choices.join(" or ") });
}

/** Any text, without surrounding spaces; unset or blank is `fallback`. */
export function text<Fallback extends string | undefined>(fallback: Fallback) {
  return z
    .preprocess(trimmed, z.string().optional())
    .transform((value) => (value ?? fallback) as string | Fallback);
}

/** Text matching `accepted`, or unset. */
export function checked(accepted: (value: string) => boolean, rule: string, hint?: string, secret = false) {
  return z
    .preprocess(trimmed, z.string().refine(accepted).optional())
    .register(rules, { rule, hint, secret });
}

/** A URL matching `accepted` (which may hold a password), or unset. */
export function secretUrl(accepted: (url: string) => boolean, rule: string, hint?: string) {
  return checked(accepted, rule, hint, true);
}

export type Variables = z.ZodObject<Record<string, z.ZodType>>;

/** Parses `env` with `schema`, or throws one line naming each variable that is wrong. */
export function readVariables<Schema extends Variables>(
  schema: Schema,
  env: NodeJS.ProcessEnv,
): z.output<Schema> {
  const parsed = schema.safeParse(env);
  if (parsed.success) return parsed.data;
  const names = [...new Set(parsed.error.issues.map((issue) => String(issue.path[0])))];
  throw new Error(names.map((name) => mistake(name, schema.shape[name], env[name])).join("; "));
}

function mistake(name: string, field: z.ZodType | undefined, value: string | undefined): string {
  const { rule = "valid", hint, secret } = (field && rules.get(field)) ?? {};
  return `${name} must be ${rule} (got ${quoted(value, secret)})${hint ? `; ${hint}` : ""}`;
}

function quoted(value: string | undefined, secret = false): string {
  if (value === undefined) return "nothing";
  if (!secret) return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  // The scheme only: the rest may hold a password.
  const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(value.trim())?.[0];
  return scheme ? `"${scheme}…"` : "no scheme";
}
