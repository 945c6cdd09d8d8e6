// What every request's context is built from (src/schema/context.ts), from the settings: one place, so
// the server and the CLI's tool interface (cms mcp) give operations the same limits and retention.
import type { Config } from "./config.ts";
import type { Database } from "./db/client.ts";
import type { ContextDeps } from "./schema/context.ts";
import { keptIdentities } from "./schema/generations.ts";
import type { Storage } from "./storage/storage.ts";

export type ContextSettings = Pick<
  Config,
  "uploadLimit" | "outboundAllowPrivate" | "history" | "requestTimeoutMs"
>;

/** A download for a request stops this long before the request's own timeout would answer 503. */
const OUTBOUND_MARGIN_MS = 2_000;
const OUTBOUND_MAX_MS = 20_000;

export function contextDeps(
  database: Database,
  storage: Storage,
  settings: ContextSettings,
  extras: Pick<ContextDeps, "outbox" | "submissions" | "reads" | "webhookDispatch"> = {},
): ContextDeps {
  return {
    ...database,
    storage,
    uploadLimit: settings.uploadLimit,
    outboundAllowPrivate: settings.outboundAllowPrivate,
    outboundTimeoutMs: Math.max(
      1_000,
      Math.min(OUTBOUND_MAX_MS, settings.requestTimeoutMs - OUTBOUND_MARGIN_MS),
    ),
    requestTimeoutMs: settings.requestTimeoutMs,
    history: settings.history,
    identities: database.dataVersion && keptIdentities(database.db, database.dataVersion),
    ...extras,
  };
}
