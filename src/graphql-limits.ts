// Limits on what one GraphQL request may ask for, checked before anything runs: tokens (while parsing),
// then depth, aliases, root fields and cost (as validation rules). A request over a limit gets one
// clear GraphQL error (code BAD_REQUEST, HTTP 400) and nothing runs. Introspection (`__schema`) is not counted against
// depth or cost, so GraphiQL keeps working. Batching (a JSON array of operations) stays off.
import { costLimitPlugin } from "@escape.tech/graphql-armor-cost-limit";
import { maxAliasesPlugin } from "@escape.tech/graphql-armor-max-aliases";
import { maxDepthPlugin } from "@escape.tech/graphql-armor-max-depth";
import { maxTokensPlugin } from "@escape.tech/graphql-armor-max-tokens";
import {
  type ASTVisitor,
  type GraphQLError,
  Kind,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from "graphql";
import type { Plugin } from "graphql-yoga";
import { ApiError } from "./schema/errors.ts";

export const graphqlLimits = {
  /** Lexical tokens in the document. */
  tokens: 3000,
  /** Nesting of selections. */
  depth: 10,
  /** Aliased fields in an operation (`__typename` excepted). */
  aliases: 15,
  /** Fields selected at the root of an operation (fragments expanded). */
  rootFields: 20,
  /** graphql-armor's cost: 2 an object, 1 a scalar, times 1.5 per level of depth. */
  cost: 5000,
};

/** A request over a limit: HTTP 400 whatever the client accepts (SECURITY.md). */
class LimitError extends ApiError {
  constructor(message: string) {
    super(400, message);
    // Marks the error's HTTP extension (never sent) so it is known after masking copies the error.
    Object.assign(this.extensions.http as object, { limit: true });
  }
}

/** graphql-armor words every limit as a "Syntax Error"; ours are plain 400s. */
const limitError = (error: GraphQLError) => new LimitError(error.message.replace(/^Syntax Error: /, ""));

/**
 * graphql-yoga marks parse and validation errors as the GraphQL-over-HTTP spec's, which it answers
 * with a 200 when the client accepts only `application/json`; a limit is a 400 for every client.
 */
const limitsAre400: Plugin = {
  onResultProcess({ result }) {
    const errors = Array.isArray(result) ? [] : ((result as { errors?: unknown[] }).errors ?? []);
    for (const error of errors) {
      const http = (error as { extensions?: { http?: { limit?: boolean; spec?: boolean } } }).extensions
        ?.http;
      if (http?.limit === true) http.spec = false;
    }
  },
};

/** Reports a limit as a validation error of the operation. */
const reject = {
  propagateOnRejection: false,
  onReject: [
    (context: ValidationContext | null, error: GraphQLError) => context?.reportError(limitError(error)),
  ],
};

/** Stops the parser at the limit. */
const rejectWhileParsing = {
  propagateOnRejection: false,
  onReject: [
    (_context: unknown, error: GraphQLError) => {
      throw limitError(error);
    },
  ],
};

function rootFieldCount(
  context: ValidationContext,
  selectionSet: SelectionSetNode,
  seen: Set<string>,
): number {
  let count = 0;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      if (selection.name.value !== "__typename") count++;
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      count += rootFieldCount(context, selection.selectionSet, seen);
    } else if (!seen.has(selection.name.value)) {
      seen.add(selection.name.value);
      const fragment = context.getFragment(selection.name.value);
      if (fragment) count += rootFieldCount(context, fragment.selectionSet, seen);
    }
  }
  return count;
}

export function maxRootFieldsRule(max: number): ValidationRule {
  return (context): ASTVisitor => ({
    OperationDefinition(operation) {
      const count = rootFieldCount(context, operation.selectionSet, new Set());
      if (count > max) {
        context.reportError(new LimitError(`Root field limit of ${max} exceeded, found ${count}.`));
      }
    },
  });
}

export function limitPlugins(limits = graphqlLimits): Plugin[] {
  return [
    maxTokensPlugin({ n: limits.tokens, ...rejectWhileParsing }),
    maxDepthPlugin({ n: limits.depth, ...reject }),
    maxAliasesPlugin({ n: limits.aliases, ...reject }),
    costLimitPlugin({ maxCost: limits.cost, ...reject }),
    { onValidate: ({ addValidationRule }) => addValidationRule(maxRootFieldsRule(limits.rootFields)) },
    limitsAre400,
  ] as Plugin[];
}
