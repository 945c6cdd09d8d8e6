// What changed, per account and table (src/db/changes.ts), as the database tells it through the real
// client on a fresh database of the suite's kind: the server connection's own writes (SQLite's triggers,
// at once; PostgreSQL's NOTIFY, at commit), another connection's commits (SQLite: everything;
// PostgreSQL: per account, once the notification arrives, and before another server process that wrote
// answers),
// and a lost listener (PostgreSQL).
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database as Opened, openDatabase } from "../src/db/client.ts";
import { migrate } from "../src/db/migrate.ts";
import { pgPath } from "./helpers/pg-path.ts";
import { postgresStatement, postgresUrl, usesPostgres } from "./helpers/server.ts";

const dir = mkdtempSync(join(tmpdir(), "cms-changes-"));
const name = `cms_changes_${randomBytes(6).toString("hex")}`;
let url: string | undefined;
let database: Opened;

const changes = () => database.generation.changes;
const stamp = () => changes().stamp();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** This process's warnings: none is expected (pg's for a query asked while another runs, say). */
const warnings: string[] = [];
process.on("warning", (warning) => warnings.push(warning.message));

/** Until `condition` holds (PostgreSQL hears of a commit a moment later), at most 2 s. */
async function eventually(condition: () => boolean): Promise<number> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > 2_000) throw new Error("not heard within 2 s");
    await sleep(2);
  }
  return Date.now() - started;
}

/** Another connection's statement, outside the server's client. */
async function elsewhere(sql: string): Promise<void> {
  if (url) return void (await postgresStatement(sql, url));
  const other = new Database(join(dir, "cms.db"));
  other.prepare(sql).run();
  other.close();
}

beforeAll(async () => {
  if (usesPostgres) {
    await postgresStatement(`CREATE DATABASE ${name}`);
    const parsed = new URL(postgresUrl);
    parsed.pathname = `/${name}`;
    url = parsed.toString();
  }
  database = await openDatabase({ dataDir: dir, databaseUrl: url });
  await migrate(database);
  await database.hearChanges();
  const created = stamp();
  for (const id of ["acct_a", "acct_b"]) {
    await database.db.account.create({ data: { id, name: id, domain: `${id}.test` } });
  }
  // Heard before the tests begin (PostgreSQL tells them a moment after their commits).
  await eventually(() => !changes().unchangedSince(created, ["acct_b"]));
});

afterAll(async () => {
  await database?.close();
  if (url) await postgresStatement(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  rmSync(dir, { recursive: true, force: true });
});

/** The server's own write is heard at once on SQLite, at commit on PostgreSQL. */
const heard = (condition: () => boolean) =>
  usesPostgres ? eventually(condition) : expect(condition()).toBe(true);

describe("changes of the server's own writes", () => {
  it("name the account written, and only in the table written", async () => {
    const before = stamp();
    await database.db.template.create({
      data: { id: "tmpl_1", accountId: "acct_a", handle: "page", title: "Page", html: "<p></p>" },
    });
    await heard(() => !changes().unchangedSince(before, ["acct_a"]));
    expect(changes().unchangedSince(before, ["acct_b"])).toBe(true);
    expect(changes().unchangedSince(before, ["acct_a"], ["ApiToken"])).toBe(true);
    expect(changes().unchangedSince(before, ["acct_a"], ["Template"])).toBe(false);
  });

  it("end every table of the account with a delete, which may cascade", async () => {
    const before = stamp();
    await database.db.template.delete({ where: { id: "tmpl_1" } });
    await heard(() => !changes().unchangedSince(before, ["acct_a"], ["ApiToken"]));
    expect(changes().unchangedSince(before, ["acct_b"])).toBe(true);
  });
});

describe("another connection's commits", () => {
  it.runIf(!usesPostgres)("change everything on SQLite, which does not say what they wrote", async () => {
    const before = stamp();
    await elsewhere(`UPDATE "Account" SET "name" = 'A2' WHERE "id" = 'acct_a'`);
    stamp(); // the next request's: it looks at SQLite's data_version
    expect(changes().unchangedSince(before, ["acct_b"])).toBe(false);
  });

  it.runIf(usesPostgres)("name their account on PostgreSQL, within milliseconds", async () => {
    const before = stamp();
    await elsewhere(`UPDATE "Account" SET "name" = 'A2' WHERE "id" = 'acct_a'`);
    const delay = await eventually(() => !changes().unchangedSince(before, ["acct_a"]));
    expect(delay).toBeLessThan(500);
    expect(changes().unchangedSince(before, ["acct_b"])).toBe(true);
  });

  it.runIf(usesPostgres)("alone, a process's writes wait for nothing", async () => {
    // No other process listens on this database: `settle` asks nothing of it (no round trip), once its
    // list of listeners is fresh (the heartbeat's, every second).
    const started = Date.now();
    while (!(await settlesInMicrotasks(changes().settle()))) {
      expect(Date.now() - started, "a round trip at each write").toBeLessThan(3_000);
      await sleep(100);
    }
  });

  it.runIf(usesPostgres)(
    "another server process's writes are heard here before that process answers",
    async () => {
      // CROSS_PROCESS_READS=at-once (the default): a process that wrote waits for `settle` before it
      // answers, and by then this one has heard the write, with no round trip before its own reads.
      const writer = await openDatabase({ dataDir: dir, databaseUrl: url });
      try {
        await writer.hearChanges();
        for (let round = 0; round < 30; round++) {
          const before = stamp();
          await writer.db.account.update({ where: { id: "acct_b" }, data: { name: `round ${round}` } });
          await writer.generation.changes.settle();
          expect(changes().unchangedSince(before, ["acct_b"]), `round ${round}`).toBe(false);
        }
      } finally {
        await writer.close();
      }
    },
  );

  it.runIf(usesPostgres)("are not heard when rolled back", async () => {
    const before = stamp();
    await expect(
      database.db.$transaction(async (tx) => {
        await tx.account.update({ where: { id: "acct_b" }, data: { name: "never" } });
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    await sleep(100);
    expect(changes().unchangedSince(before, ["acct_b"])).toBe(true);
  });
});

describe.runIf(usesPostgres)("a lost listener", () => {
  it("serves nothing kept until it listens again, then hears changes again", async () => {
    await postgresStatement(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE datname = '${name}' AND application_name = 'cms changes listener'`,
      url,
    );
    await eventually(() => changes().blind);
    const during = stamp();
    stamp(); // the next request's
    expect(changes().unchangedSince(during, ["acct_b"])).toBe(false);
    await eventually(() => !changes().blind);
    const before = stamp();
    await elsewhere(`UPDATE "Account" SET "name" = 'B2' WHERE "id" = 'acct_b'`);
    await eventually(() => !changes().unchangedSince(before, ["acct_b"]));
    expect(changes().unchangedSince(before, ["acct_a"])).toBe(true);
  });
});

/** Until a listening connection not among `others` is listed; its PID. */
async function newListener(others: number[]): Promise<number> {
  for (;;) {
    const [pid] = (await listenerPids()).filter((listener) => !others.includes(listener));
    if (pid) return pid;
    await sleep(5);
  }
}

/** A process listening through a silenceable path to PostgreSQL, with its listening connection's PID. */
async function readerBehindPath() {
  const path = await pgPath(url as string);
  const others = await listenerPids();
  const reader = await openDatabase({ dataDir: dir, databaseUrl: path.url });
  const close = async () => {
    await path.close();
    await settlesWithin(reader.close(), 2_000);
  };
  try {
    await reader.hearChanges();
    return { path, reader, pid: await newListener(others), close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * A listening connection outside the server's code, named as the processes name theirs: it answers a
 * barrier 300 ms late when `answers()` says so (called once per barrier), and none otherwise.
 */
async function lateListener(answers: () => boolean): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, application_name: "cms changes listener" });
  await client.connect();
  await client.query("LISTEN cms_changes");
  client.on("notification", ({ payload, processId }) => {
    if (!payload?.startsWith("!") || !answers()) return;
    setTimeout(() => {
      client.query("SELECT pg_notify($1, $2)", [`cms_heard_${processId}`, payload.slice(1)]).catch(() => {});
    }, 300);
  });
  return client;
}

/** A listener of the test database outside the server's code, recording the notifications it hears. */
async function observer() {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query("LISTEN cms_changes");
  const heard: { payload: string; processId: number }[] = [];
  client.on("notification", ({ payload = "", processId }) => heard.push({ payload, processId }));
  return { client, heard };
}

/** The backend PIDs of the listening connections on the test database. */
async function listenerPids(): Promise<number[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>(
      "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1",
      ["cms changes listener"],
    );
    return rows.map((row) => row.pid);
  } finally {
    await client.end();
  }
}

/** Whether `promise` settles before any I/O could have happened (no round trip). */
async function settlesInMicrotasks(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(() => {
    settled = true;
  });
  for (let turn = 0; turn < 10; turn++) await Promise.resolve();
  return settled;
}

/** How long a process's `settle` took, in ms. */
async function settleMs(opened: Pick<Opened, "generation">): Promise<number> {
  const started = Date.now();
  await opened.generation.changes.settle();
  return Date.now() - started;
}

/** Whether `promise` settles within `ms`. */
const settlesWithin = (promise: Promise<unknown>, ms: number) =>
  Promise.race([promise.then(() => true), sleep(ms).then(() => false)]);

describe.runIf(usesPostgres)("CROSS_PROCESS_READS", () => {
  it("notified: hears another connection's commit without a round trip before reads", async () => {
    const notified = await openDatabase({ dataDir: dir, databaseUrl: url, crossProcessReads: "notified" });
    try {
      await notified.hearChanges();
      const heardThere = notified.generation.changes;
      const before = heardThere.stamp();
      await elsewhere(`UPDATE "Account" SET "name" = 'B3' WHERE "id" = 'acct_b'`);
      const delay = await eventually(() => !heardThere.unchangedSince(before, ["acct_b"]));
      expect(delay).toBeLessThan(500);
      expect(heardThere.unchangedSince(before, ["acct_a"])).toBe(true);
    } finally {
      await notified.close();
    }
  });

  it("a process that begins to listen beside another keeps nothing until the other knows of it", async () => {
    const joining = await openDatabase({ dataDir: dir, databaseUrl: url });
    try {
      const started = Date.now();
      await joining.hearChanges();
      // Blind until then: the other may have written, not knowing of it, for as long as it trusts its list.
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
      expect(joining.generation.changes.blind).toBe(false);
      // By now the other knows of it: its writes wait for the joiner's answer.
      expect(await settlesInMicrotasks(changes().settle())).toBe(false);
      await changes().settle();
    } finally {
      await joining.close();
    }
  });

  it("at-once: a process that does not answer barriers is waited for once, for at most 2 s", async () => {
    // Listed as a listener, hearing every notification, answering none (a process stuck or gone).
    const mute = await lateListener(() => false);
    const writer = await openDatabase({ dataDir: dir, databaseUrl: url });
    const notified = await openDatabase({ dataDir: dir, databaseUrl: url, crossProcessReads: "notified" });
    try {
      await writer.hearChanges();
      await notified.hearChanges();
      const first = await settleMs(writer);
      expect(first).toBeGreaterThanOrEqual(1_900);
      expect(first).toBeLessThan(3_500);
      expect(await settleMs(writer), "waited again for the silent one").toBeLessThan(1_000);
      // notified: the writer answers without waiting for anybody.
      expect(await settleMs(notified)).toBeLessThan(100);
    } finally {
      await mute.end();
      await writer.close();
      await notified.close();
    }
  });

  it("at-once: a process not waited for is waited for again once it answers a barrier", async () => {
    // The only other listener: silent at first, then answering each barrier 300 ms late.
    let answering = false;
    const late = await lateListener(() => answering);
    try {
      await sleep(1_600); // until this process's list of listeners has it
      expect(await settleMs(database)).toBeGreaterThanOrEqual(1_900);
      answering = true;
      // Not waited for now, but it still gets the barrier, and answers it.
      expect(await settleMs(database)).toBeLessThan(250);
      await sleep(500);
      expect(await settleMs(database), "not waited for again").toBeGreaterThanOrEqual(250);
    } finally {
      await late.end();
    }
  });

  it("at-once: a process still joining waits for the others to hear its writes", async () => {
    const others = await listenerPids();
    const writer = await openDatabase({ dataDir: dir, databaseUrl: url });
    const joined = writer.hearChanges();
    try {
      // Listening, and within its 2 s of keeping nothing: it writes, and this process hears each write
      // before the writer's settle resolves.
      await newListener(others);
      for (let round = 0; round < 10; round++) {
        const before = stamp();
        await writer.db.account.update({ where: { id: "acct_b" }, data: { name: `joining ${round}` } });
        await writer.generation.changes.settle();
        expect(changes().unchangedSince(before, ["acct_b"]), `round ${round}`).toBe(false);
      }
      expect(writer.generation.changes.blind, "still joining").toBe(true);
    } finally {
      await joined;
      await writer.close();
    }
  });

  it("at-once: a process whose listening connection was lost waits for the next one", async () => {
    const others = await listenerPids();
    const writer = await openDatabase({ dataDir: dir, databaseUrl: url });
    const seen = await observer();
    try {
      await writer.hearChanges();
      const pid = await newListener(others);
      await postgresStatement(`SELECT pg_terminate_backend(${pid})`, url);
      while (!writer.generation.changes.blind) await sleep(5);
      const before = stamp();
      await writer.db.account.update({ where: { id: "acct_b" }, data: { name: "after a loss" } });
      const started = Date.now();
      await writer.generation.changes.settle();
      expect(changes().unchangedSince(before, ["acct_b"])).toBe(false);
      // Its barrier went on the next connection, a second later.
      expect(Date.now() - started).toBeGreaterThanOrEqual(500);
      const next = await newListener([...others, pid]);
      // The observer hears it a moment after the process that answered.
      await eventually(() =>
        seen.heard.some(({ payload, processId }) => payload.startsWith("!") && processId === next),
      );
    } finally {
      await seen.client.end();
      await writer.close();
    }
  });

  it("at-once: a barrier whose answers were to come on a lost connection is sent again", async () => {
    // Another listener that answers each barrier but the first 300 ms late.
    let barriers = 0;
    const late = await lateListener(() => barriers++ > 0);
    const others = await listenerPids();
    const writer = await openDatabase({ dataDir: dir, databaseUrl: url });
    try {
      await writer.hearChanges();
      const pid = await newListener(others);
      const started = Date.now();
      const settled = writer.generation.changes.settle();
      await sleep(100);
      await postgresStatement(`SELECT pg_terminate_backend(${pid})`, url);
      await settled;
      // Answered on the next connection (a second later, then 300 ms), not given up after 2 s.
      expect(Date.now() - started).toBeLessThan(1_900);
      expect(await settleMs(writer), "the late one is still waited for").toBeGreaterThanOrEqual(250);
    } finally {
      await late.end();
      await writer.close();
    }
  });

  it("a process that stops while it joins stops at once", async () => {
    const others = await listenerPids();
    const joining = await openDatabase({ dataDir: dir, databaseUrl: url });
    const joined = joining.hearChanges();
    await newListener(others);
    const started = Date.now();
    await joining.close();
    await joined;
    expect(Date.now() - started).toBeLessThan(500);
  });

  it("a process not heard from lately serves nothing kept, before its connection counts as lost", async () => {
    // A reader that cannot hear (a stalled event loop, a slow network) may not have been waited for: a
    // writer waits 2 s at most. Its lease (1.5 s from its last round trip sent) ends first.
    const path = await pgPath(url as string);
    const reader = await openDatabase({ dataDir: dir, databaseUrl: path.url });
    try {
      await reader.hearChanges();
      const heard = reader.generation.changes;
      const kept = heard.stamp();
      expect(heard.unchangedSince(kept, ["acct_b"])).toBe(true);
      path.silence();
      // The last answered heartbeat was sent at most half a second (and a round trip) before.
      await sleep(600);
      heard.stamp();
      expect(heard.unchangedSince(kept, ["acct_b"]), "within the lease").toBe(true);
      // The last answered round trip was sent before the silence: the lease ends 1.5 s after it at most.
      await sleep(1_100);
      expect(heard.blind, "not yet noticed as lost").toBe(false);
      heard.stamp();
      expect(heard.unchangedSince(kept, ["acct_b"]), "past the lease").toBe(false);
    } finally {
      await path.close();
      await settlesWithin(reader.close(), 2_000);
    }
  });

  it("a process whose lease ran out says it is back, then takes a lease again", async () => {
    const { path, reader, pid, close } = await readerBehindPath();
    const seen = await observer();
    try {
      const heard = reader.generation.changes;
      // Stalled for longer than its lease, shorter than a round trip has: it comes back with all it missed.
      path.hold();
      await sleep(1_700);
      path.release();
      const started = Date.now();
      while (!seen.heard.some(({ payload, processId }) => payload === "?" && processId === pid)) {
        expect(Date.now() - started, "said it is back").toBeLessThan(2_000);
        await sleep(5);
      }
      expect(heard.blind).toBe(false);
      // Then a lease again: a stamp no longer changes everything.
      for (;;) {
        const stamped = heard.stamp();
        if (heard.stamp() === stamped) break;
        expect(Date.now() - started, "a lease again").toBeLessThan(3_000);
        await sleep(20);
      }
    } finally {
      await seen.client.end();
      await close();
    }
  });

  it("a process that stalls again before its next lease says it is back again", async () => {
    const { path, pid, close } = await readerBehindPath();
    const seen = await observer();
    try {
      const backs = () => seen.heard.filter(({ payload, processId }) => payload === "?" && processId === pid);
      // Its lease runs out; it says it is back (the one pg_notify it sends here), then stalls before it
      // hears that said: a writer may have stopped waiting for it again meanwhile.
      path.hold();
      path.holdAfter("pg_notify($1, $2)");
      await sleep(1_700);
      path.release();
      await eventually(() => backs().length === 1);
      // Longer than its lease would be, shorter than a round trip may take before the connection counts
      // as lost.
      await sleep(1_800);
      path.release();
      await eventually(() => backs().length === 2);
    } finally {
      await seen.client.end();
      await close();
    }
  });

  it("answers barriers heard one after another in turn, leaving pg no queue of its own", async () => {
    const { path, pid, close } = await readerBehindPath();
    const writer = new pg.Client({ connectionString: url });
    await writer.connect();
    try {
      const answers: number[] = [];
      writer.on("notification", ({ payload, processId }) => {
        if (processId === pid) answers.push(Number(payload));
      });
      const { rows } = await writer.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
      await writer.query(`LISTEN cms_heard_${rows[0]?.pid}`);
      // Each barrier reaches the reader on its own, while its answer to the one before is on its way.
      path.slow(200);
      for (let barrier = 1; barrier <= 5; barrier++) {
        await writer.query("SELECT pg_notify('cms_changes', $1)", [`!${barrier}`]);
        await sleep(20);
      }
      const started = Date.now();
      while (!answers.includes(5)) {
        expect(Date.now() - started, "all answered").toBeLessThan(3_000);
        await sleep(10);
      }
      expect(warnings).toEqual([]);
    } finally {
      await writer.end();
      await close();
    }
  });

  it("at-once: a process not waited for is waited for again once it says it is back", async () => {
    // Silent at first, then back: it says so and answers each barrier 300 ms late.
    let answering = false;
    const back = await lateListener(() => answering);
    const writer = await openDatabase({ dataDir: dir, databaseUrl: url });
    try {
      await writer.hearChanges();
      expect(await settleMs(writer), "waited for once").toBeGreaterThanOrEqual(1_900);
      answering = true;
      await back.query("SELECT pg_notify('cms_changes', '?')");
      expect(await settleMs(writer), "waited for again at once").toBeGreaterThanOrEqual(250);
    } finally {
      await back.end();
      await writer.close();
    }
  });

  it("at-once: a process not waited for is waited for again once the writer listens anew", async () => {
    // It says it is back while the writer's connection is down: unheard, so the new connection forgets
    // whom the old one stopped waiting for.
    let answering = false;
    const back = await lateListener(() => answering);
    const others = await listenerPids();
    const writer = await openDatabase({ dataDir: dir, databaseUrl: url });
    try {
      await writer.hearChanges();
      const pid = await newListener(others);
      expect(await settleMs(writer), "waited for once").toBeGreaterThanOrEqual(1_900);
      await postgresStatement(`SELECT pg_terminate_backend(${pid})`, url);
      while (!writer.generation.changes.blind) await sleep(5);
      answering = true;
      await back.query("SELECT pg_notify('cms_changes', '?')");
      await newListener([...others, pid]);
      expect(await settleMs(writer), "waited for again").toBeGreaterThanOrEqual(250);
    } finally {
      await back.end();
      await writer.close();
    }
  });

  for (const reads of ["at-once", "notified"] as const) {
    it(`${reads}: a listening connection gone silent is noticed, and nothing kept is served`, async () => {
      const path = await pgPath(url as string);
      const opened = await openDatabase({ dataDir: dir, databaseUrl: path.url, crossProcessReads: reads });
      try {
        await opened.hearChanges();
        await opened.generation();
        path.silence();
        // No read waits for the listening connection, in either mode.
        const read = opened.generation();
        // Once blind, it reads the next publish moment again, through the silent path too: never awaited.
        read.catch(() => {});
        expect(await settlesWithin(read, 300)).toBe(true);
        // A writer's barrier through it ends: its round trip within 2 s, then it waits for another
        // listening connection for what is left of 3 s (none comes through the silent path).
        expect(await settlesWithin(opened.generation.changes.settle(), 4_000)).toBe(true);
        // The heartbeat: within the 2 s a round trip has.
        const started = Date.now();
        while (!opened.generation.changes.blind) {
          expect(Date.now() - started, "still listening").toBeLessThan(4_000);
          await sleep(50);
        }
      } finally {
        await path.close();
        await settlesWithin(opened.close(), 2_000);
      }
    });
  }
});
