// The validator of a read (docs/api-notes.md, "Caching and validators"): a strong tag hashed from all an
// answer depends on — the data generation, the caller (token and Host), the request's shape and the
// server's build — so an unchanged tag means an unchanged answer. The generation is account-wide: any
// change to the account's data since the read makes its tags stale, even where the answer would be the
// same (conservative: never a 304 for a changed answer).
import { createHash } from "node:crypto";
import type { Context } from "../context.ts";
import { buildIdentity } from "./build.ts";

/** What a read asks, besides who asks it: a GET's path and query, or a GraphQL GET's parameters. */
export interface ReadShape {
  path: string;
  /** The query string as the answer depends on it (REST, site pages: all of it; GraphQL: its parameters). */
  query: string;
  /** Representation choices the answer depends on (GraphQL's Accept). */
  variant?: string;
}

/**
 * `"<27 characters of base64url>"`, or undefined when the generation tells nothing (an empty one: a
 * server that keeps no reads reads none).
 */
export async function readTag(ctx: Context, read: ReadShape): Promise<string | undefined> {
  const generation = await ctx.generation();
  if (!generation) return undefined;
  const parts = [buildIdentity(), generation, ctx.caller, read.path, read.query, read.variant ?? ""];
  return `"${createHash("sha256").update(parts.join("\u0000")).digest("base64url").slice(0, 27)}"`;
}
