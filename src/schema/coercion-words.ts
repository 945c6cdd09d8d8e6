// What a value refused by GraphQL's own coercion (a wrong type, an Int past 32 bits, an unknown enum value)
// must be, in the project's words: graphql-js's messages ("Int cannot represent non 32-bit signed integer
// value: 3000000000") name its internals, not the rule a client broke.
import type { GraphQLSchema } from "graphql";
import { isEnumType } from "graphql";

export const INT_MIN = -2147483648;
export const INT_MAX = 2147483647;
export const INT_RULE = `must be a whole number between ${INT_MIN} and ${INT_MAX}`;

/** The values of each enum type by name, so that a refused value can be answered with those allowed. */
const enumValues = new Map<string, string[]>();

/** Records the schema's enums: called once the schema is built. */
export function recordEnumValues(schema: GraphQLSchema): void {
  for (const type of Object.values(schema.getTypeMap()))
    if (isEnumType(type) && !type.name.startsWith("__"))
      enumValues.set(
        type.name,
        type.getValues().map((value) => value.name),
      );
}

const scalarRules: Record<string, string> = {
  Int: INT_RULE,
  Float: "must be a number",
  String: "must be a string",
  Boolean: "must be true or false",
  ID: "must be a string",
};

/** The reason graphql-js gives (after "got invalid value …; "), as a detail message. */
export function coercionWords(reason: string): string {
  // Our own scalars' errors (DateTime, JSON) are already worded for clients.
  if (/^(must|is|may) /.test(reason)) return reason;
  const scalar = /^(Int|Float|String|Boolean|ID) cannot represent/.exec(reason)?.[1];
  if (scalar) return scalarRules[scalar] as string;
  const enumName =
    /^Value .* does not exist in "(\w+)" enum/.exec(reason)?.[1] ??
    /^Enum "(\w+)" cannot represent/.exec(reason)?.[1];
  if (enumName) {
    const values = enumValues.get(enumName);
    return values ? `must be one of ${values.join(", ")}` : "is not an allowed value";
  }
  if (/^Expected non-nullable type .* not to be null/.test(reason)) return "must not be null";
  if (/^Expected type "[^"]+" to be an object/.test(reason)) return "must be an object";
  if (/^Field "\w+" is not defined by type/.test(reason)) return "is not a field of this input";
  const expected = /^Expected type "(\w+)"/.exec(reason)?.[1];
  if (expected && scalarRules[expected]) return scalarRules[expected] as string;
  return "is not a valid value";
}
