// The shape REST gives a record (content-api.md), which the tool interface and webhook events answer too:
// related records nested to sofa's depth, and blueprint values as top-level keys.

import { buildOperationNodeForField } from "@graphql-tools/utils";
import { type DocumentNode, type GraphQLSchema, Kind, OperationTypeNode } from "graphql";

/** How deep REST answers nest related records: sofa-api's depth limit (src/rest/sofa.ts). */
export const ANSWER_DEPTH = 2;

/** `Query.entries`, `Mutation.entryCreate`: a root field of the schema. */
export type FieldName = `Query.${string}` | `Mutation.${string}`;

const answerDocuments = new WeakMap<GraphQLSchema, Map<FieldName, DocumentNode>>();

/**
 * The document that answers a root field as REST does: every field of its type, related records to
 * ANSWER_DEPTH, its arguments as variables of the same names, as sofa-api builds it for REST. Built once per
 * schema and field; the tool interface and webhook events run it.
 */
export function answerDocument(schema: GraphQLSchema, field: FieldName): DocumentNode {
  let documents = answerDocuments.get(schema);
  if (!documents) {
    documents = new Map();
    answerDocuments.set(schema, documents);
  }
  let document = documents.get(field);
  if (!document) {
    const [kind, name = ""] = field.split(".");
    const operation = buildOperationNodeForField({
      schema,
      kind: kind === "Mutation" ? OperationTypeNode.MUTATION : OperationTypeNode.QUERY,
      field: name,
      models: [],
      circularReferenceDepth: ANSWER_DEPTH,
    });
    document = { kind: Kind.DOCUMENT, definitions: [operation] };
    documents.set(field, document);
  }
  return document;
}

/**
 * A record, a list envelope of records, or a payload holding its record in `record` (a trash restore), with
 * blueprint values as top-level keys.
 */
export function spreadValues(body: Record<string, unknown>): Record<string, unknown> {
  if (Array.isArray(body.data)) return { ...body, data: body.data.map(spread) };
  if (isRecord(body.record)) return { ...body, record: spread(body.record) };
  return spread(body);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * `{..., values: {a, b}}` -> `{..., a, b}`; the record's own keys win over values of the same name.
 * One object built key by key: spreads made three per record, a list's largest allocation. Values' keys are
 * blueprint handles, never `__proto__` (handles.ts), so assigning them cannot reach the prototype.
 */
function spread(record: Record<string, unknown>): Record<string, unknown> {
  const spreadRecord: Record<string, unknown> = {};
  for (const key in record) if (key !== "values") spreadRecord[key] = record[key];
  const values = record.values as Record<string, unknown> | null | undefined;
  if (values)
    for (const key in values) if (!Object.hasOwn(spreadRecord, key)) spreadRecord[key] = values[key];
  return spreadRecord;
}
