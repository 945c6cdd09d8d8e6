// The transports execute operations through this (the tool interface, /graphql via yoga, the site renderer
// in-process). A query's result is kept in the read cache under the data generation's stamp read before it
// ran, keyed by the operation, its variables and who asked (token and Host: all a query's answer
// depends on besides the data). Results with errors, and those a resolver says vary (`answerVaries`), are
// not kept. Mutations run as they are, and the
// request reads the generation afresh after each one (fresh-after-writes.ts), so its later reads (a page
// rendered after a form submission) see its own write. Execution is compiled (compiled-execute.ts).
// REST (src/rest/run-route.ts) executes without this: its GET answers are kept whole
// (src/rest/kept-answers.ts), and a REST write is the last thing its request does.
import { type DocumentNode, type ExecutionArgs, type ExecutionResult, getOperationAST } from "graphql";
import { compiledExecute } from "./compiled-execute.ts";
import type { Context } from "./context.ts";

type Execute = (args: ExecutionArgs) => ExecutionResult | Promise<ExecutionResult>;

const documentIds = new WeakMap<DocumentNode, number>();
let documents = 0;

/** Parsed documents are reused (rest-shape.ts's per field, yoga's parse cache, the renderer's constants). */
function documentId(document: DocumentNode): number {
  let id = documentIds.get(document);
  if (id === undefined) {
    id = ++documents;
    documentIds.set(document, id);
  }
  return id;
}

export async function cachedExecute(
  args: ExecutionArgs,
  execute: Execute = compiledExecute,
): Promise<ExecutionResult> {
  const ctx = args.contextValue as Context;
  const operation = getOperationAST(args.document, args.operationName);
  if (!ctx.reads?.keeps(undefined) || operation?.operation !== "query") return execute(args);
  const key = [
    documentId(args.document),
    args.operationName ?? "",
    ctx.caller,
    JSON.stringify(args.variableValues ?? {}),
  ].join("\u0000");
  return ctx.keep(key, async () => serializedOnce(await execute(args)), {
    size: (result) => (result.errors || ctx.answerVaries ? undefined : textOf(result).length * 2),
    answer: true,
  });
}

/**
 * A result to keep, with its JSON text written once: for its size in the cache, and for every answer that
 * sends it, since yoga serializes a result with its own `stringify` when it has one (as graphql-jit's
 * results do). Not enumerable, so a copy made by a plugin (which may differ) is serialized afresh.
 */
function serializedOnce(result: ExecutionResult): ExecutionResult {
  if (result.errors || result.extensions) return result;
  let text: string | undefined;
  const stringify = () => {
    text ??= JSON.stringify(result);
    return text;
  };
  return Object.defineProperty(result, "stringify", { value: stringify, enumerable: false });
}

function textOf(result: ExecutionResult): string {
  const own = (result as { stringify?: () => string }).stringify;
  return own ? own() : JSON.stringify(result);
}
