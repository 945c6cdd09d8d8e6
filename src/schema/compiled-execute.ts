// Compiled execution (graphql-jit) of the operations the transports run: REST's document per field
// (rest-shape.ts), the site renderer's constants, and the documents of /graphql and the tool interface.
// graphql-js walks the document anew for every object of an answer (a list of 20 entries with their
// related records is hundreds of field executions); a compiled query is a function made once per document
// that reads the same resolvers, with the same context and arguments, in a fraction of the time. A
// document graphql-jit cannot compile runs on graphql-js, and so does one whose variables have a recursive
// input type: graphql-jit unrolls their coercion into code (a navigation's item tree took 24 s to compile).
import {
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  execute,
  type GraphQLNamedType,
  type GraphQLSchema,
  getNamedType,
  getOperationAST,
  getVariableValues,
  isInputObjectType,
  type NamedTypeNode,
  typeFromAST,
  type VariableDefinitionNode,
} from "graphql";
import { type CompiledQuery, compileQuery, isCompiledQuery } from "graphql-jit";
import { LRUCache } from "lru-cache";

/**
 * Documents are reused objects (rest-shape.ts per field, yoga's parse cache, the renderer's constants);
 * clients of /graphql may send any number of distinct ones, so only the most recently used stay compiled.
 */
const compiled = new LRUCache<DocumentNode, Map<string, Compiled>>({ max: 1000 });

/** An operation as compiled once: its query (null: it runs on graphql-js) and its variables' definitions. */
interface Compiled {
  query: CompiledQuery | null;
  definitions: readonly VariableDefinitionNode[];
}

function compiledOperation(args: ExecutionArgs): Compiled {
  const operationName = args.operationName ?? "";
  let operations = compiled.get(args.document);
  if (!operations) {
    operations = new Map();
    compiled.set(args.document, operations);
  }
  let operation = operations.get(operationName);
  if (!operation) {
    const definitions = getOperationAST(args.document, args.operationName)?.variableDefinitions ?? [];
    const made = recursiveInput(args.schema, definitions)
      ? null
      : compileQuery(args.schema, args.document, args.operationName ?? undefined);
    operation = { query: made && isCompiledQuery(made) ? made : null, definitions };
    operations.set(operationName, operation);
  }
  return operation;
}

export function compiledExecute(args: ExecutionArgs): ExecutionResult | Promise<ExecutionResult> {
  const { query, definitions } = compiledOperation(args);
  if (!query) return execute(args);
  // Variables are checked by graphql-js first: its messages name the input field a value lacks, which
  // the error answers turn into a detail's path (errors.ts); graphql-jit words them otherwise.
  const variables = getVariableValues(args.schema, definitions, args.variableValues ?? {});
  if (variables.errors) return { errors: variables.errors };
  return query.query(args.rootValue, args.contextValue, args.variableValues ?? {});
}

/** Whether a variable's input type contains itself (an item with `children` of its own type). */
function recursiveInput(schema: GraphQLSchema, definitions: readonly VariableDefinitionNode[]): boolean {
  const reaches = (type: GraphQLNamedType, path: Set<GraphQLNamedType>): boolean => {
    if (!isInputObjectType(type)) return false;
    if (path.has(type)) return true;
    path.add(type);
    const found = Object.values(type.getFields()).some((field) => reaches(getNamedType(field.type), path));
    path.delete(type);
    return found;
  };
  return definitions.some((definition) => {
    const type = typeFromAST(schema, definition.type as NamedTypeNode);
    return type !== undefined && reaches(getNamedType(type), new Set());
  });
}
