// How an operation's value becomes the JSON object REST answers for the same resource.
import { spreadValues } from "../schema/rest-shape.ts";

export type Shape =
  /** The value as it is (records, list envelopes). */
  | "record"
  /** Blueprint values as top-level keys, as REST answers entries and globals. */
  | "values"
  /** A delete's ID: REST answers 204, a tool says what went. */
  | "deleted";

export function shaped(value: unknown, shape: Shape = "record"): Record<string, unknown> {
  if (shape === "deleted") return { id: value, deleted: true };
  const record = value as Record<string, unknown>;
  return shape === "values" ? spreadValues(record) : record;
}
