// JSON for free-form values (blueprint values, field options) and DateTime for ISO 8601 timestamps.
import { GraphQLError, Kind, type ValueNode } from "graphql";
import { builder } from "./builder.ts";
import { MAX_JSON_DEPTH, nestsDeeperThan } from "./json-depth.ts";

builder.scalarType("JSON", {
  description: `Any JSON value, its arrays and objects nested at most ${MAX_JSON_DEPTH} levels deep.`,
  serialize: (value) => value,
  parseValue: (value) => {
    if (nestsDeeperThan(value)) {
      throw new GraphQLError(`must not nest arrays and objects more than ${MAX_JSON_DEPTH} levels deep`);
    }
    return value;
  },
  parseLiteral: (node) => literalValue(node),
});

function literalValue(node: ValueNode): unknown {
  switch (node.kind) {
    case Kind.STRING:
    case Kind.BOOLEAN:
    case Kind.ENUM:
      return node.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(node.value);
    case Kind.LIST:
      return node.values.map(literalValue);
    case Kind.OBJECT:
      return Object.fromEntries(node.fields.map((field) => [field.name.value, literalValue(field.value)]));
    default:
      return null;
  }
}

// A date, optionally with a time and a UTC offset; no offset means UTC.
const iso8601 =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

export function parseDateTime(value: unknown): Date {
  const match = typeof value === "string" ? iso8601.exec(value.trim()) : null;
  if (!match) throw new GraphQLError("is not an ISO 8601 date-time");
  const [, year, month, day, hour = "00", minute = "00", second = "00", fraction = "", zone = "Z"] = match;
  const offset = zone.replace(/^([+-]\d{2})(\d{2})$/, "$1:$2");
  const date = new Date(
    `${year}-${month}-${day}T${hour}:${minute}:${second}${fraction.slice(0, 4)}${offset}`,
  );
  const calendar = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  if (Number.isNaN(date.getTime()) || calendar.getUTCDate() !== Number(day)) {
    throw new GraphQLError("is not a valid date-time");
  }
  return date;
}

builder.scalarType("DateTime", {
  description: "An ISO 8601 date-time, such as 2024-05-01T09:30:00Z.",
  serialize: (value) => (value instanceof Date ? value.toISOString() : value),
  parseValue: parseDateTime,
  parseLiteral: (node) => parseDateTime(node.kind === Kind.STRING ? node.value : undefined),
});
