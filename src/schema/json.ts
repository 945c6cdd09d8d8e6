// Values already checked to be plain JSON, typed for Prisma's Json columns.
import type { Prisma } from "../generated/sqlite/client.ts";

export function toJson(value: unknown): Prisma.InputJsonValue {
  return value as Prisma.InputJsonValue;
}

/** A mapping as JSON has them: not a Date, bytes, a Map or another class's instance. */
export function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
