// templateValidate: every Liquid syntax error of a source with its line, checked as a template save
// checks it (liquid.ts, which knows the CMS's own tags). The parser stops at the first error, so after
// recording one the tag or output it belongs to is disarmed (its `{%` / `{{` turned into spaces, which
// keeps every line and column) and the source is parsed again. Each round disarms one more opener, so
// the rounds end; they are capped in number and, past the first, in time (liquidjs parses a large
// source in seconds), and `valid` only depends on the first.
import { LiquidError } from "liquidjs";
import { accountScope } from "../access.ts";
import { accountArg } from "../args.ts";
import { builder } from "../builder.ts";
import { templateSource } from "./inputs.ts";
import { liquidParseFailure } from "./liquid.ts";

const MAX_PROBLEMS = 20;
/** Rounds that only find an error again (its opener sat inside a string) count here too. */
const MAX_ROUNDS = 2 * MAX_PROBLEMS;
const EXTRA_ROUNDS_MS = 1000;
const MAX_MESSAGE = 300;

interface TemplateProblem {
  line: number;
  column: number | null;
  message: string;
}

const TemplateProblemRef = builder.objectRef<TemplateProblem>("TemplateProblem").implement({
  description: "One Liquid syntax error.",
  fields: (t) => ({
    line: t.exposeInt("line", { description: "1-based line of the tag or output in error." }),
    column: t.exposeInt("column", { nullable: true, description: "1-based column, when known." }),
    message: t.exposeString("message"),
  }),
});

const TemplateValidationRef = builder
  .objectRef<{ valid: boolean; errors: TemplateProblem[] }>("TemplateValidation")
  .implement({
    fields: (t) => ({
      valid: t.exposeBoolean("valid", { description: "Whether a template save would accept the source." }),
      errors: t.field({
        type: [TemplateProblemRef],
        description: `Each syntax error by line (at most ${MAX_PROBLEMS}); empty when valid.`,
        resolve: (validation) => validation.errors,
      }),
    }),
  });

/** The problem an error of the parser describes; its message without the position liquidjs appends. */
function problemOf(error: LiquidError): TemplateProblem {
  const [line = 1, column = null] = error.token.getPosition();
  const position = `, line:${line}, col:${column}`;
  const full = error.originalError?.message ?? error.message;
  const message = full.endsWith(position) ? full.slice(0, -position.length) : full;
  // An unclosed output or tag quotes the source after it, which may be most of a megabyte.
  return {
    line,
    column,
    message: message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE)}…` : message,
  };
}

/** Where the `{%` or `{{` that opens the tag or output holding `position` starts; -1 when none does. */
function openerBefore(source: string, position: number): number {
  return Math.max(source.lastIndexOf("{%", position), source.lastIndexOf("{{", position));
}

export function liquidProblems(html: string): TemplateProblem[] {
  const problems: TemplateProblem[] = [];
  const seen = new Set<string>();
  const started = performance.now();
  let source = html;
  for (let round = 0; round < MAX_ROUNDS && problems.length < MAX_PROBLEMS; round++) {
    if (round > 0 && performance.now() - started > EXTRA_ROUNDS_MS) break;
    const error = liquidParseFailure(source);
    if (!error) break;
    if (!LiquidError.is(error) || error.token.input !== source) {
      // Not tied to a place in this source: reported as it is, with nothing to disarm for another round.
      problems.push({ line: 1, column: null, message: error.message });
      break;
    }
    const problem = problemOf(error);
    const key = `${problem.line}:${problem.column}:${problem.message}`;
    if (!seen.has(key)) problems.push(problem);
    seen.add(key);
    const opener = openerBefore(source, error.token.begin);
    if (opener < 0) break;
    source = `${source.slice(0, opener)}  ${source.slice(opener + 2)}`;
  }
  return problems.sort((a, b) => a.line - b.line || (a.column ?? 0) - (b.column ?? 0));
}

builder.queryField("templateValidate", (t) =>
  t.field({
    type: TemplateValidationRef,
    description: "Checks a Liquid source as a template save would, reporting each syntax error by line.",
    args: {
      account_id: accountArg(t.arg),
      html: t.arg.string({ required: true, validate: templateSource }),
    },
    resolve: async (_root, args, ctx) => {
      await accountScope(ctx, args.account_id, "read");
      const errors = liquidProblems(args.html);
      return { valid: errors.length === 0, errors };
    },
  }),
);
