// A tool runs a root field of the schema as REST answers it (rest-shape.ts's document for the field),
// executed with the caller's context.
import type { GraphQLSchema } from "graphql";
import { cachedExecute } from "../schema/cached-execute.ts";
import type { Context } from "../schema/index.ts";
import { answerDocument, type FieldName } from "../schema/rest-shape.ts";

export type { FieldName };

export function createOperations(schema: GraphQLSchema) {
  /** The field's value, or the first error the execution gave (thrown as it came). */
  return async function run(ctx: Context, field: FieldName, variables: Record<string, unknown>) {
    const result = await cachedExecute({
      schema,
      document: answerDocument(schema, field),
      contextValue: ctx,
      variableValues: variables,
    });
    const error = result.errors?.[0];
    if (error) throw error;
    return result.data?.[field.slice(field.indexOf(".") + 1)];
  };
}

export type RunOperation = ReturnType<typeof createOperations>;
