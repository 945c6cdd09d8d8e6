// Values already checked to be plain JSON, typed for Prisma's Json columns.
import type { Prisma } from "../generated/sqlite/client.ts";

export function toJson(value: unknown): Prisma.InputJsonValue {
  return value as Prisma.InputJsonValue;
}
