// An entry's blueprint and collection come from the account's lookups, read once per request
// (src/schema/account-lookups.ts, loaders.ts). One made after the request read them (by another process,
// not yet heard of) is missing there: it is then read on its own, and still named.
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Database } from "../src/db/client.ts";
import { blueprintHandleOf, collectionHandleOf } from "../src/schema/account-lookups.ts";
import type { Context } from "../src/schema/context.ts";
import { createLoaders } from "../src/schema/loaders.ts";
import { openFreshDatabase } from "./helpers/database.ts";

let database: Database;
let drop: () => Promise<void>;

beforeAll(async () => {
  ({ database, drop } = await openFreshDatabase());
  await database.db.account.create({ data: { id: "acct_l", name: "L", domain: "l.test" } });
});

afterAll(() => drop?.());

it("names a blueprint and a collection made after the request read the account's lookups", async () => {
  // A request's view: nothing kept across requests, the lookups read once.
  const ctx = { db: database.db, keep: (_key: string, compute: () => unknown) => compute() };
  const loaders = createLoaders(ctx as unknown as Pick<Context, "db" | "keep">);
  const request = { db: database.db, loaders };
  expect((await loaders.blueprints("acct_l")).size).toBe(0);
  expect((await loaders.collections("acct_l")).size).toBe(0);

  const accountId = "acct_l";
  await database.db.collection.create({
    data: { id: "clctn_late", accountId, handle: "late", name: "Late", routing: "late/:handle" },
  });
  await database.db.blueprint.create({
    data: { id: "bp_late", accountId, handle: "late_post", title: "Late", fields: [] },
  });
  const entry = { accountId, blueprintId: "bp_late", collectionId: "clctn_late" };
  expect(await blueprintHandleOf(request, entry)).toBe("late_post");
  expect(await collectionHandleOf(request, entry)).toBe("late");
});
