// An event's `data`: the record as REST returns it (the same document REST runs for its read, rest-shape.ts's, values
// spread), read through the write's own transaction so that it is the state the change left, written in
// the same commit. Read as the account itself: a form submission has no token, and the record is the
// account's own. A navigation carries its whole item tree.
import type { Db } from "../../db/client.ts";
import { compiledExecute } from "../compiled-execute.ts";
import { type Context, createContext } from "../context.ts";
import { answerDocument, spreadValues } from "../rest-shape.ts";
import type { ChangeEvent, RecordKind } from "./events.ts";

type Tx = Omit<Db, "$transaction" | "$connect" | "$disconnect" | "$on" | "$extends">;

const reads: Record<RecordKind, { field: string; spread?: boolean }> = {
  entry: { field: "entry", spread: true },
  collection: { field: "collection" },
  global: { field: "global", spread: true },
  navigation: { field: "navigation" },
  asset: { field: "asset" },
  template: { field: "template" },
};

async function run(ctx: Context, field: string, variables: Record<string, unknown>) {
  // Imported when first needed: the schema is built from the modules that call this.
  const { schema } = await import("../index.ts");
  const document = answerDocument(schema, `Query.${field}`);
  const result = await compiledExecute({ schema, document, contextValue: ctx, variableValues: variables });
  if (result.errors?.[0]) throw result.errors[0];
  return (result.data as Record<string, unknown>)[field] as Record<string, unknown>;
}

/** A context like `ctx` whose reads go through `tx`, uncached, as the account. */
function readerIn(ctx: Context, tx: Tx, accountId: string): Context {
  const reader = createContext({ ...ctx, db: tx as Db, reads: undefined }, { headers: new Headers() });
  reader.viewer = async () => ({ accountId, scope: "read", tokenId: `operator:${accountId}` });
  return reader;
}

export async function recordData(ctx: Context, tx: Tx, accountId: string, event: ChangeEvent) {
  const reader = readerIn(ctx, tx, accountId);
  const { field, spread } = reads[event.kind];
  const variables = { account_id: accountId, id: event.id, collection_id: event.collectionId };
  const record = await run(reader, field, variables);
  if (event.kind !== "navigation") return spread ? spreadValues(record) : record;
  const items: unknown[] = [];
  for (let page = 1; ; page++) {
    const list = await run(reader, "navigationItems", {
      account_id: accountId,
      navigation_id: event.id,
      page,
    });
    items.push(...(list.data as unknown[]));
    if (!(list.pagination as { next_page?: number | null }).next_page) break;
  }
  return { ...record, items };
}
