// A tool runs a root field of the schema the way sofa runs it for REST: one document per field, selecting
// what REST answers (sofa's depth, no models), executed with the caller's context. Built once per field.
import { buildOperationNodeForField } from "@graphql-tools/utils";
import { type DocumentNode, type GraphQLSchema, Kind, type OperationTypeNode } from "graphql";
import { cachedExecute } from "../schema/cached-execute.ts";
import type { Context } from "../schema/index.ts";
import { ANSWER_DEPTH } from "../schema/rest-shape.ts";

/** `Query.entries`, `Mutation.entryCreate`: a root field of the schema. */
export type FieldName = `Query.${string}` | `Mutation.${string}`;

export function createOperations(schema: GraphQLSchema) {
  const documents = new Map<FieldName, DocumentNode>();

  function document(field: FieldName): DocumentNode {
    let built = documents.get(field);
    if (!built) {
      const [kind, name = ""] = field.split(".");
      const operation = buildOperationNodeForField({
        schema,
        kind: (kind === "Mutation" ? "mutation" : "query") as OperationTypeNode,
        field: name,
        models: [],
        circularReferenceDepth: ANSWER_DEPTH,
      });
      built = { kind: Kind.DOCUMENT, definitions: [operation] };
      documents.set(field, built);
    }
    return built;
  }

  /** The field's value, or the first error the execution gave (thrown as it came). */
  return async function run(ctx: Context, field: FieldName, variables: Record<string, unknown>) {
    const result = await cachedExecute({
      schema,
      document: document(field),
      contextValue: ctx,
      variableValues: variables,
    });
    const error = result.errors?.[0];
    if (error) throw error;
    return result.data?.[field.slice(field.indexOf(".") + 1)];
  };
}

export type RunOperation = ReturnType<typeof createOperations>;
