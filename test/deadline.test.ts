// A request's view of the database client (src/db/deadline.ts), on the real client and database of this
// run: an operation begun after the request's deadline is refused and marks the request's work cut short;
// a transaction whose work ends after it commits nothing; a write begun in time is waited for; the
// client behind the view (work that outlives the request) has no deadline. test/timeouts.test.ts shows the
// same through the server: a write answered 503 is not committed afterwards.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../src/db/client.ts";
import { boundedClient, Deadline, DeadlinePassedError, unbounded } from "../src/db/deadline.ts";
import { openFreshDatabase } from "./helpers/database.ts";

let database: Database;
let drop: () => Promise<void>;
const names = () => database.db.account.findMany({ select: { id: true }, orderBy: { id: "asc" } });
const account = (id: string) => ({ data: { id, name: id, domain: `${id}.test` } });

beforeAll(async () => {
  ({ database, drop } = await openFreshDatabase());
});

afterAll(() => drop?.());

describe("a request's client with a deadline", () => {
  it("runs operations and transactions begun in time", async () => {
    const deadline = new Deadline(Date.now() + 60_000);
    const db = boundedClient(database.db, deadline);
    await db.account.create(account("acct_in_time"));
    await db.$transaction(async (tx) => {
      await tx.account.create(account("acct_in_tx"));
    });
    expect(await db.$queryRawUnsafe(`SELECT 'yes' AS "answer"`)).toEqual([{ answer: "yes" }]);
    expect(deadline.refused).toBe(false);
    expect(await names()).toEqual([{ id: "acct_in_time" }, { id: "acct_in_tx" }]);
  });

  it("refuses a write, a read, a raw statement and a transaction begun after the deadline", async () => {
    const deadline = new Deadline(Date.now() - 1);
    const db = boundedClient(database.db, deadline);
    await expect(db.account.create(account("acct_late"))).rejects.toBeInstanceOf(DeadlinePassedError);
    expect(deadline.refused).toBe(true);
    await expect(db.account.findMany()).rejects.toBeInstanceOf(DeadlinePassedError);
    await expect(db.$executeRawUnsafe(`DELETE FROM "Account"`)).rejects.toBeInstanceOf(DeadlinePassedError);
    const work = { ran: false };
    await expect(
      db.$transaction(async () => {
        work.ran = true;
      }),
    ).rejects.toBeInstanceOf(DeadlinePassedError);
    expect(work.ran).toBe(false);
    expect(await names()).toEqual([{ id: "acct_in_time" }, { id: "acct_in_tx" }]);
  });

  it("rolls back a transaction whose work ends after the deadline, and refuses its later statements", async () => {
    const deadline = new Deadline(Date.now() + 200);
    const db = boundedClient(database.db, deadline);
    const late = db.$transaction(async (tx) => {
      await tx.account.create(account("acct_rolled_back"));
      await new Promise((resolve) => setTimeout(resolve, 300));
      return "done";
    });
    await expect(late).rejects.toBeInstanceOf(DeadlinePassedError);
    expect(deadline.refused).toBe(true);

    const refused = new Deadline(Date.now() + 200);
    const statements = boundedClient(database.db, refused).$transaction(async (tx) => {
      await tx.account.create(account("acct_first"));
      await new Promise((resolve) => setTimeout(resolve, 300));
      await tx.account.create(account("acct_second"));
    });
    await expect(statements).rejects.toBeInstanceOf(DeadlinePassedError);
    expect(await names()).toEqual([{ id: "acct_in_time" }, { id: "acct_in_tx" }]);
  });

  it("waits, as a 503 does, for a write begun in time, which commits", async () => {
    const deadline = new Deadline(Date.now() + 60_000);
    const db = boundedClient(database.db, deadline);
    const order: string[] = [];
    const write = db.account.create(account("acct_settled")).then(() => order.push("written"));
    await deadline.settled(10_000).then(() => order.push("settled"));
    await write;
    expect(order).toEqual(["written", "settled"]);
    expect(await names()).toContainEqual({ id: "acct_settled" });
  });

  it("waits, as a 503 does, for the commit of a transaction whose work ended in time", async () => {
    const deadline = new Deadline(Date.now() + 60_000);
    const db = boundedClient(database.db, deadline);
    const order: string[] = [];
    let waited: Promise<unknown> | undefined;
    const transaction = db.$transaction(async (tx) => {
      await tx.account.create(account("acct_settled_tx"));
      // As the 503 does, in a later turn of the event loop: once the work has returned (the microtasks
      // after it) and before the commit's answer can have come (the next poll for I/O).
      setImmediate(() => {
        waited = deadline.settled(10_000).then(() => order.push("settled"));
      });
    });
    await transaction.then(() => order.push("committed"));
    await new Promise((resolve) => setTimeout(resolve, 20));
    await waited;
    expect(order).toEqual(["committed", "settled"]);
    expect(await names()).toContainEqual({ id: "acct_settled_tx" });
  });

  it("stops waiting after its limit for work that does not settle, and lets the process go on", async () => {
    const deadline = new Deadline(Date.now() - 1);
    deadline.track(new Promise(() => {}));
    const timerRan = new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 10));
    await deadline.settled(50);
    expect(await timerRan).toBe(true);
  });

  it("refuses the batch form of a transaction, whose writes would run twice", async () => {
    const db = boundedClient(database.db, new Deadline(Date.now() + 60_000));
    await expect(db.$transaction([])).rejects.toThrow(/interactive transactions only/);
  });

  it("hands work that outlives the request the client without a deadline, also from a transaction", async () => {
    const deadline = new Deadline(Date.now() + 200);
    const db = boundedClient(database.db, deadline);
    expect(unbounded(db)).toBe(database.db);
    expect(unbounded(database.db)).toBe(database.db);
    await db.$transaction(async (tx) => {
      expect(unbounded(tx)).toBe(database.db);
      expect((tx as { $transaction?: unknown }).$transaction).toBeUndefined();
    });
    await new Promise((resolve) => setTimeout(resolve, 250));
    await unbounded(db).account.create(account("acct_background"));
    expect(await names()).toContainEqual({ id: "acct_background" });
  });
});
