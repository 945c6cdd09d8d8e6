// A record of the file is held to exactly the rules its own create mutation applies: it is coerced as
// that mutation's GraphQL input type (types, required fields, enums, dates) and then run through the
// validation schemas declared on that input's fields (plugin-validation keeps them on the built schema),
// so no rule is spelled twice. Problems are reported under the record's path in the document.
import {
  coerceInputValue,
  type GraphQLInputType,
  GraphQLList,
  GraphQLNonNull,
  type GraphQLSchema,
  isInputObjectType,
} from "graphql";
import type { Path } from "./document.ts";
import type { ImportProblems } from "./problems.ts";

interface StandardSchema {
  "~standard": {
    validate(value: unknown): StandardResult | Promise<StandardResult>;
  };
}
type StandardResult =
  | { value: unknown; issues?: undefined }
  | { issues: readonly { message: string; path?: readonly unknown[] }[] };

let built: GraphQLSchema | undefined;

/** The built schema, loaded when first needed (this module is part of it: a static import would loop). */
export async function loadSchema(): Promise<void> {
  built ??= (await import("../index.ts")).schema;
}

/**
 * The record as its input type `typeName` takes it (coerced and validated, transforms applied), or
 * undefined when it broke a rule; each broken rule is a problem at `path`. Keys the type does not have
 * are left out first: the file holds more than any one input (a collection's blueprints, say).
 */
export function checkInput<T = Record<string, unknown>>(
  typeName: string,
  record: Record<string, unknown>,
  path: Path,
  problems: ImportProblems,
): T | undefined {
  const type = built?.getType(typeName);
  if (!type || !isInputObjectType(type)) throw new Error(`no input type ${typeName}`);
  const own = Object.fromEntries(Object.entries(record).filter(([key]) => key in type.getFields()));
  let failed = false;
  const coerced = coerceInputValue(own, type, (at, _invalid, error) => {
    failed = true;
    problems.add([...path, ...at], error.message.replace(/\.$/, ""));
  });
  if (failed) return undefined;
  const checked = validated(type, coerced, path, problems);
  return checked.ok ? (checked.value as T) : undefined;
}

type Outcome = { ok: true; value: unknown } | { ok: false };

function validated(type: GraphQLInputType, value: unknown, path: Path, problems: ImportProblems): Outcome {
  if (value == null) return { ok: true, value };
  if (type instanceof GraphQLNonNull) return validated(type.ofType, value, path, problems);
  if (type instanceof GraphQLList) {
    let ok = true;
    const items = (value as unknown[]).map((item, index) => {
      const outcome = validated(type.ofType, item, [...path, index], problems);
      ok &&= outcome.ok;
      return outcome.ok ? outcome.value : item;
    });
    return ok ? { ok, value: items } : { ok: false };
  }
  if (!isInputObjectType(type)) return { ok: true, value };
  let ok = true;
  const result: Record<string, unknown> = {};
  for (const [key, fieldValue] of Object.entries(value as Record<string, unknown>)) {
    const field = type.getFields()[key];
    if (!field) continue;
    const inner = validated(field.type, fieldValue, [...path, key], problems);
    if (!inner.ok) {
      ok = false;
      continue;
    }
    let current = inner.value;
    const schemas = (field.extensions?.["@pothos/plugin-validation"] as { schemas?: StandardSchema[] })
      ?.schemas;
    // As the plugin runs them: the innermost (declared last) first.
    for (const schema of [...(schemas ?? [])].reverse()) {
      const outcome = schema["~standard"].validate(current);
      if (outcome instanceof Promise) throw new Error(`asynchronous validation on ${type.name}.${key}`);
      if (outcome.issues) {
        ok = false;
        for (const issue of outcome.issues)
          problems.add([...path, key, ...segments(issue.path)], issue.message);
        break;
      }
      current = outcome.value;
    }
    result[key] = current;
  }
  return ok ? { ok, value: result } : { ok: false };
}

function segments(path: readonly unknown[] | undefined): (string | number)[] {
  return (path ?? []).map((segment) => {
    const key = typeof segment === "object" && segment !== null ? (segment as { key: unknown }).key : segment;
    return typeof key === "number" ? key : String(key);
  });
}
