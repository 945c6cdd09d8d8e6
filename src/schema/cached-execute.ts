// /graphql (via yoga) and the tool interface execute operations through this. A query's result is kept in
// the read cache at the request's generation (context.ts `keep`), keyed by the operation, its variables
// and who asked (token and Host: all a query's answer depends on besides the data). Results with errors,
// and those a resolver says vary (`answerVaries`), are not kept. Mutations run as they are. Execution is
// compiled (compiled-execute.ts). REST keeps its GET answers whole (src/rest/kept-answers.ts) and the site
// its rendered pages (src/render/index.ts): each path has one layer of kept answers.
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
  if (!ctx.reads?.keeps(false) || operation?.operation !== "query") return execute(args);
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
 * A result to keep, with its JSON text written once: the answer yoga sends (it serializes a result with
 * its own `stringify` when it has one, as graphql-jit's results do), and so the size of what is kept.
 * Not enumerable, so a copy made by a plugin (which may differ) is serialized afresh.
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
