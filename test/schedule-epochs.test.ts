// Schedule epochs (src/db/schedule.ts) and what is kept under them (src/schema/read-cache.ts), on a real
// database of the suite's kind: a new epoch tells of the accounts whose entries came due, so that what was
// kept under an older one is served for the others only; a write heard while a new epoch is being read
// still ends it at its entry's moment; on SQLite, a transaction that rolls back is a change again.
import { PrismaPg } from "@prisma/adapter-pg";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Changes } from "../src/db/changes.ts";
import { type Database as Opened, openDatabase, sqliteFile } from "../src/db/client.ts";
import { postgresScheduleReads, type ScheduleReads, sqliteScheduleReads } from "../src/db/generation.ts";
import { migrate } from "../src/db/migrate.ts";
import { scheduledAsOf, scheduledGeneration } from "../src/db/schedule.ts";
import { ReadCache } from "../src/schema/read-cache.ts";
import { visibleAt } from "../src/schema/site/scope.ts";
import { freshDatabase, usesPostgres } from "./helpers/server.ts";

let fresh: Awaited<ReturnType<typeof freshDatabase>>;
let database: Opened;
/** Schedule reads on a connection of their own, and how to close it. */
let ownReads: { reads: ScheduleReads; close(): Promise<void> };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

beforeAll(async () => {
  fresh = await freshDatabase();
  const config = { dataDir: String(fresh.env.CMS_DATA_DIR), databaseUrl: fresh.env.DATABASE_URL };
  database = await openDatabase(config);
  await migrate(database);
  await database.hearChanges();
  for (const id of ["A", "B"]) {
    await database.db.account.create({ data: { id, name: id, domain: `${id.toLowerCase()}.test` } });
    await database.db.collection.create({
      data: { id: `c${id}`, accountId: id, handle: "notes", name: "Notes", routing: "/{handle}" },
    });
    await database.db.blueprint.create({
      data: {
        id: `b${id}`,
        accountId: id,
        handle: "note",
        title: "Note",
        fields: [],
        collectionId: `c${id}`,
      },
    });
  }
  if (usesPostgres) {
    const adapter = await new PrismaPg({ connectionString: String(config.databaseUrl) }).connect();
    ownReads = { reads: postgresScheduleReads(adapter), close: () => adapter.dispose() };
  } else {
    const client = new Database(sqliteFile(config));
    ownReads = { reads: sqliteScheduleReads(client), close: async () => void client.close() };
  }
});

afterAll(async () => {
  await ownReads?.close();
  await database?.close();
  await fresh?.drop();
});

let entries = 0;
/** An entry of `account` published as of `publishedAt`; its ID. */
async function entry(account: string, publishedAt: number): Promise<string> {
  const id = `e${++entries}`;
  await database.db.entry.create({
    data: {
      id,
      accountId: account,
      collectionId: `c${account}`,
      blueprintId: `b${account}`,
      handle: id,
      title: id,
      contentPath: `/${id}`,
      data: {},
      publishedAt: new Date(publishedAt),
    },
  });
  return id;
}

/** What `account`'s site shows as of a generation's time: its entries' IDs. */
async function shown(account: string, generation: string): Promise<string[]> {
  const asOf = scheduledAsOf(generation) as Date;
  const rows = await database.db.entry.findMany({
    where: { accountId: account, ...visibleAt(asOf) },
    select: { id: true },
    orderBy: { id: "asc" },
  });
  return rows.map((row) => row.id);
}

/** A generation on its own changes, over the real reads with `around` run about each. */
function generationOver(
  around: (read: () => Promise<unknown>, name: keyof ScheduleReads) => Promise<unknown>,
) {
  const changes = new Changes();
  changes.blind = false;
  const { reads } = ownReads;
  const generation = scheduledGeneration(changes, {
    nextPublish: (time) => around(() => reads.nextPublish(time), "nextPublish") as Promise<number | null>,
    dueAccounts: (after, upTo) =>
      around(() => reads.dueAccounts(after, upTo), "dueAccounts") as Promise<string[] | undefined>,
  });
  return { changes, generation, cache: new ReadCache(generation, { answerBytes: 1 << 20, lookupBytes: 0 }) };
}

describe("a new schedule epoch", () => {
  it("ends only the kept answers of the accounts whose entries came due", async () => {
    const { changes, generation, cache } = generationOver((read) => read());
    const dueAt = Date.now() + 300;
    const due = await entry("A", dueAt);
    changes.changed("A", "Entry");
    const before = await generation();
    cache.set("A", { stamp: changes.stamp(), accounts: ["A"] }, await shown("A", before), 10);
    cache.set("B", { stamp: changes.stamp(), accounts: ["B"] }, await shown("B", before), 10);
    await sleep(dueAt - Date.now() + 20);
    const after = await generation();
    expect(await shown("A", after)).toContain(due);
    expect(cache.get("A")).toBeUndefined();
    expect(cache.get("B")).toEqual(await shown("B", after));
  });

  it("still ends at the moment of an entry written while it was being read", async () => {
    let during: (() => Promise<void>) | undefined;
    const { changes, generation } = generationOver(async (read, name) => {
      const result = await read();
      if (name !== "dueAccounts") return result;
      const write = during;
      during = undefined;
      await write?.();
      return result;
    });
    const firstDue = Date.now() + 200;
    await entry("A", firstDue);
    changes.changed("A", "Entry");
    await generation();
    await sleep(firstDue - Date.now() + 20);
    // While the new epoch (A's entry came due) reads which accounts came due, B schedules an entry.
    let laterDue = 0;
    let later = "";
    during = async () => {
      laterDue = Date.now() + 400;
      later = await entry("B", laterDue);
      changes.changed("B", "Entry");
    };
    await generation();
    expect(later).not.toBe("");
    await sleep(laterDue - Date.now() + 20);
    expect(await shown("B", await generation())).toContain(later);
  });

  it("ends everything kept when an earlier first reading was overtaken", async () => {
    let slow = true;
    const { changes, generation, cache } = generationOver(async (read) => {
      const result = await read();
      if (slow) {
        slow = false;
        await sleep(100);
      }
      return result;
    });
    const dueAt = Date.now() + 40;
    await entry("B", dueAt);
    // The first reading (at start-up) is slow; a write meanwhile makes the next request read again.
    const first = generation();
    await sleep(10);
    changes.changed("A", "Entry");
    await sleep(60);
    await generation();
    const firstGeneration = await first;
    const kept = await shown("B", firstGeneration);
    cache.set("B", { stamp: Number.parseInt(firstGeneration, 10), accounts: ["B"] }, kept, 10);
    const now = await generation();
    const found = cache.get("B");
    expect(found === undefined || JSON.stringify(found) === JSON.stringify(await shown("B", now))).toBe(true);
  });
});

describe.skipIf(usesPostgres)("a transaction rolled back (SQLite)", () => {
  it("is a change again of what it wrote, read meanwhile outside it", async () => {
    const { generation } = database;
    const changes = generation.changes;
    const cache = new ReadCache(generation, { answerBytes: 1 << 20, lookupBytes: 0 });
    const start = Date.now();
    const moved = await entry("B", start + 600);
    const other = start + 900;
    await entry("A", other);
    await generation();
    // A transaction moves B's entry far ahead, stays open past both moments, and fails.
    const failed = database.db
      .$transaction(
        async (tx) => {
          await tx.entry.update({ where: { id: moved }, data: { publishedAt: new Date(start + 60_000) } });
          await sleep(start + 1_200 - Date.now());
          throw new Error("rolled back");
        },
        { timeout: 10_000 },
      )
      .catch((error: Error) => error.message);
    await sleep(100);
    // B's page, before its moment: the generation read while the transaction is open, the page after it.
    const stamp = changes.stamp();
    const pageOf = await generation();
    const page = shown("B", pageOf);
    await sleep(other - Date.now() + 50);
    // After A's moment, the transaction still open: a new epoch, whose reads see B's entry moved away.
    await generation();
    expect(await failed).toBe("rolled back");
    cache.set("B", { stamp, accounts: ["B"] }, await page, 10);
    const now = await generation();
    expect(await shown("B", now)).toContain(moved);
    expect(cache.get("B")).toBeUndefined();
  });
});
