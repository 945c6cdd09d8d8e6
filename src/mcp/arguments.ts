// A tool's arguments checked against its JSON Schema's top level before anything runs: an unknown name or
// a value of the wrong kind is a 422 naming the tool's own argument (the operation would name its field,
// which may be called otherwise). Deeper values are the operation's to check.
import type { ErrorDetail } from "../schema/errors.ts";
import { type JsonSchema, mainType } from "./json-schema.ts";
import type { Tool } from "./tool.ts";

export function argumentProblems(tool: Tool, args: Record<string, unknown>): ErrorDetail[] {
  const { properties, required = [] } = tool.inputSchema;
  const problems: ErrorDetail[] = [];
  for (const [name, value] of Object.entries(args)) {
    // A `__proto__` key of parsed JSON is an own key like any other: not an argument either.
    const schema = Object.hasOwn(properties, name) && name !== "__proto__" ? properties[name] : undefined;
    if (!schema) problems.push({ path: name, message: `is not an argument of ${tool.name}` });
    else if (value !== null && !fits(schema, value))
      problems.push({ path: name, message: `must be ${kindName(schema)}` });
  }
  for (const name of required)
    if (args[name] === undefined || args[name] === null)
      problems.push({ path: name, message: "is required" });
  return problems;
}

function fits(schema: JsonSchema, value: unknown): boolean {
  switch (mainType(schema)) {
    case "string":
      return typeof value === "string";
    case "integer":
      return Number.isInteger(value);
    case "number":
      return typeof value === "number";
    case "boolean":
      return typeof value === "boolean";
    case "array":
      return Array.isArray(value);
    case "object":
      return typeof value === "object" && !Array.isArray(value);
    default:
      return true;
  }
}

function kindName(schema: JsonSchema): string {
  const names: Record<string, string> = {
    string: "a string",
    integer: "a whole number",
    number: "a number",
    boolean: "true or false",
    array: "an array",
    object: "an object",
  };
  return names[String(mainType(schema))] ?? "valid";
}
