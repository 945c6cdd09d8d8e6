// Builds a request for any root field of a GraphQL schema from introspection alone: a selection of its
// whole answer (a few levels deep) and argument values, so that a test can call every operation the
// schema has, including ones added after the test was written.
import {
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLOutputType,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  isUnionType,
} from "graphql";

/** The selection of every field of `type`, nested objects up to `depth` levels; fields needing arguments are skipped. */
export function selectionOf(type: GraphQLOutputType, depth = 3): string {
  const named = getNamedType(type);
  if (!isObjectType(named)) return "";
  const fields = Object.values(named.getFields())
    .filter((field) => field.args.every((arg) => !isNonNullType(arg.type)))
    .map((field) => {
      const inner = getNamedType(field.type);
      // A union (a restored record of any type): which one it is.
      if (isUnionType(inner)) return `${field.name} { __typename }`;
      if (!isObjectType(inner)) return field.name;
      if (depth <= 1) return "";
      const nested = selectionOf(field.type, depth - 1);
      return nested ? `${field.name} ${nested}` : "";
    })
    .filter(Boolean);
  return `{ ${fields.length > 0 ? fields.join(" ") : "__typename"} }`;
}

/**
 * A value of an input type with its required fields only: `pick(name)` supplies a value by the field's
 * name, else it is a filler of its type.
 */
export function inputValue(
  type: GraphQLInputType,
  pick: (name: string) => unknown,
  name = "",
  depth = 3,
): unknown {
  const chosen = pick(name);
  if (chosen !== undefined) return chosen;
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) return [inputValue(inner.ofType, pick, name, depth)];
  if (isEnumType(inner)) return inner.getValues()[0]?.value;
  if (isInputObjectType(inner)) {
    const object: Record<string, unknown> = {};
    if (depth <= 0) return object;
    for (const field of Object.values(inner.getFields())) {
      const value = pick(field.name);
      if (value !== undefined) object[field.name] = value;
      else if (isNonNullType(field.type))
        object[field.name] = inputValue(field.type, pick, field.name, depth - 1);
    }
    return object;
  }
  if (isScalarType(inner)) {
    switch (inner.name) {
      case "Int":
        return 1;
      case "Float":
        return 1.5;
      case "Boolean":
        return true;
      case "JSON":
        return {};
      default:
        return "probe";
    }
  }
  return null;
}

/** `query ($a: T!, ...) { field(a: $a, ...) { ... } }` for one root field. */
export function operationFor(kind: "query" | "mutation", field: GraphQLField<unknown, unknown>): string {
  const variables = field.args.map((arg) => `$${arg.name}: ${arg.type}`).join(", ");
  const passed = field.args.map((arg) => `${arg.name}: $${arg.name}`).join(", ");
  return `${kind}${variables ? ` (${variables})` : ""} { ${field.name}${passed ? `(${passed})` : ""} ${selectionOf(field.type)} }`;
}
