// Routing patterns: `/`-separated segments, each a literal or one `:token` (handle, year, month, day,
// or the handle of an entity field for parent/child URLs).
import { z } from "zod";
import { DOT_SEGMENTS, literalSegment as literal, noDotSegments } from "../site-path.ts";

const token = ":[A-Za-z_][A-Za-z0-9_]*";
const segment = `(?:${literal}|${token})`;
const routingPattern = new RegExp(`^/?${segment}(?:/${segment})*/?$`);
const pathPattern = new RegExp(`^/?(?:${literal})(?:/${literal})*/?$|^/$`);

export const builtinTokens = new Set(["handle", "year", "month", "day"]);
export const dateTokens = ["year", "month", "day"];

export const routingSchema = z
  .string()
  .max(200, "must be at most 200 characters")
  .regex(routingPattern, "must be path segments such as blog/:handle or :year/:month/:handle")
  .refine((routing) => tokensOf(routing).includes("handle"), "must contain :handle")
  .refine(noDotSegments, DOT_SEGMENTS);

export const indexRoutingSchema = z
  .string()
  .max(200, "must be at most 200 characters")
  .regex(pathPattern, "must be a path such as blog")
  .refine(noDotSegments, DOT_SEGMENTS);

export function tokensOf(routing: string): string[] {
  return routing.split("/").flatMap((part) => (part.startsWith(":") ? [part.slice(1)] : []));
}

export function usesDate(routing: string): boolean {
  return tokensOf(routing).some((name) => dateTokens.includes(name));
}

/** Entity-field tokens: the ones that are not built in. */
export function fieldTokens(routing: string): string[] {
  return tokensOf(routing).filter((name) => !builtinTokens.has(name));
}
