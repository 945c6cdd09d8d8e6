// What runs around the client's queries (src/db/query-hooks.ts), on the real client and database of this
// run: the text guard refuses NUL in a model operation, a raw statement and a transaction's operation, and
// only when the operation is awaited (one made and dropped fails no one); a transaction's client has the
// hooks too; the client's other members work as Prisma's own.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../src/db/client.ts";
import { UnstorableTextError } from "../src/db/text-guard.ts";
import { openFreshDatabase } from "./helpers/database.ts";

let database: Database;
let drop: () => Promise<void>;
const account = (id: string, name = id) => ({ data: { id, name, domain: `${id}.test` } });

beforeAll(async () => {
  ({ database, drop } = await openFreshDatabase());
});

afterAll(() => drop?.());

describe("the text guard around the client", () => {
  it("refuses NUL in an operation, naming the field, and writes nothing", async () => {
    const refused = database.db.account.create(account("acct_nul", "a\u0000b"));
    await expect(refused).rejects.toBeInstanceOf(UnstorableTextError);
    await expect(refused).rejects.toMatchObject({ field: "name" });
    expect(await database.db.account.count({ where: { id: "acct_nul" } })).toBe(0);
  });

  it("refuses NUL in raw statements, tagged and unsafe", async () => {
    const text = "x\u0000y";
    await expect(database.db.$queryRaw`SELECT ${text} AS "value"`).rejects.toBeInstanceOf(
      UnstorableTextError,
    );
    await expect(database.db.$queryRawUnsafe(`SELECT $1 AS "value"`, text)).rejects.toBeInstanceOf(
      UnstorableTextError,
    );
    expect(await database.db.$queryRaw`SELECT ${"plain"} AS "value"`).toEqual([{ value: "plain" }]);
  });

  it("refuses NUL inside an interactive transaction, which then commits nothing", async () => {
    await expect(
      database.db.$transaction(async (tx) => {
        await tx.account.create(account("acct_tx_first"));
        await tx.account.create(account("acct_tx_nul", "\u0000"));
      }),
    ).rejects.toBeInstanceOf(UnstorableTextError);
    expect(await database.db.account.count({ where: { id: { startsWith: "acct_tx_" } } })).toBe(0);
  });

  it("runs a refused operation only when awaited: one dropped rejects nowhere", async () => {
    const unhandled: unknown[] = [];
    const listen = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", listen);
    try {
      database.db.account.create(account("acct_dropped", "\u0000"));
      database.db.entry.count({ where: { handle: "\u0000" } });
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      process.off("unhandledRejection", listen);
    }
    expect(unhandled).toEqual([]);
  });
});

describe("the client's other members through the hooks", () => {
  it("answers fluent relation reads, and counts inside a transaction there", async () => {
    const db = database.db;
    await db.account.create(account("acct_members"));
    expect(await db.account.findUnique({ where: { id: "acct_members" } }).collections()).toEqual([]);
    const accountId = "acct_members";
    await db.collection.create({
      data: { id: "coll_members", accountId, handle: "posts", name: "Posts", routing: ":handle" },
    });
    await db.blueprint.create({
      data: {
        id: "blpr_members",
        accountId,
        collectionId: "coll_members",
        handle: "post",
        title: "Post",
        fields: [],
      },
    });
    const where = { accountId, collectionId: "coll_members" };
    expect(await db.entry.count({ where })).toBe(0);
    const inside = await db
      .$transaction(async (tx) => {
        await tx.entry.create({
          data: {
            id: "cnety_members",
            accountId,
            collectionId: "coll_members",
            blueprintId: "blpr_members",
            handle: "one",
            title: "One",
            contentPath: "one",
            data: {},
          },
        });
        const counted = await tx.entry.count({ where });
        throw Object.assign(new Error("roll back"), { counted });
      })
      .catch((error: { counted?: number }) => error.counted);
    expect(inside).toBe(1);
    expect(await db.entry.count({ where })).toBe(0);
    expect(typeof db.$disconnect).toBe("function");
  });
});
