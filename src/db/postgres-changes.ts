// PostgreSQL tells every server process of every committed change: the schema's triggers (migration
// data_changes) NOTIFY `cms_changes` with the account (and the table, for inserts), delivered at commit to
// each listening connection. One connection per process listens. What changed is checked in memory.
// A notification reaches the other processes a moment after the writer's commit returns. Who waits for it
// (CROSS_PROCESS_READS, docs/deployment.md):
// - "at-once" (the default): the writer. After a request's writes (a root mutation, fresh-after-writes.ts),
//   before it answers, a process that knows of other listening processes sends a barrier on its listening
//   connection (`settle`): a notification of its own, committed after those writes. Each listening process
//   answers a barrier once it has heard it, so after every notification committed before it (PostgreSQL
//   delivers notifications in commit order). When all have answered, the write is read at once through any
//   of them, and no read waits for anything: nothing is asked of the database before a request's reads.
//   Writes by other clients (the CLI, psql) send no barrier: they are heard as with "notified".
// - "notified": the writer answers without waiting; a kept answer elsewhere may outlive its write by the
//   notification's delay (measured by `npm run bench -- --cross-process`).
// Every process answers barriers, whatever its mode. One that has not answered within 2 s is not waited
// for again until it answers one (a process stopped without closing its connection stays listed until
// PostgreSQL notices).
//
// Who listens is read from pg_stat_activity (a connection is named a listener once it listens), with each
// barrier and with the heartbeat: a round trip every second, which also checks that the connection is
// alive (nothing else would notice one gone silent without a reset: a partition, a failed-over host). A
// process that knows of no other listener, as read within the last MEMBERS_FRESH_MS, sends no barrier. One
// that begins to listen while others do may be unknown to them for that long: until JOIN_MS have passed
// and a round trip on its connection has brought it every notification committed meanwhile, it keeps
// nothing (`blind`), so that no write it was not waited for can have ended something it kept.
// Until the listener is connected, and whenever it is lost, nothing kept is served (`blind`); it
// reconnects every second, and everything counts as changed once it is back.
import { performance } from "node:perf_hooks";
import pg from "pg";
import type { CrossProcessReads } from "../config.ts";
import type { Changes } from "./changes.ts";

const CHANNEL = "cms_changes";
/** What a listening connection is named once it listens: how the processes find one another. */
const LISTENER_NAME = "cms changes listener";
/** A barrier's payload on CHANNEL: `!<number>`; account IDs, the other payloads, never begin with it. */
const BARRIER = "!";
/** Where a process hears the answers to its barriers, by its listening connection's backend PID. */
const answersChannel = (pid: number) => `cms_heard_${pid}`;
const RECONNECT_MS = 1_000;

export interface Listener {
  /** Resolves once listening (or once the first attempt failed: then it keeps trying). */
  ready: Promise<void>;
  stop(): Promise<void>;
}

/** A round trip on the listening connection not answered in this time counts as the connection lost. */
const ROUND_TRIP_TIMEOUT_MS = 2_000;
/** How long a barrier waits for the other processes' answers. */
const ANSWER_TIMEOUT_MS = 2_000;
/** How often the listening connection is checked, and the listeners read (one round trip). */
const HEARTBEAT_MS = 1_000;
/** How long a list of the listeners is trusted, from when it was asked for. */
const MEMBERS_FRESH_MS = 1_500;
/** How long a process that found others listening keeps nothing: at least MEMBERS_FRESH_MS. */
const JOIN_MS = 2_000;

const OTHER_LISTENERS = `ARRAY(SELECT pid FROM pg_stat_activity WHERE datname = current_database()
  AND application_name = $1 AND pid <> pg_backend_pid()) AS members`;
const MEMBERS_SQL = `SELECT ${OTHER_LISTENERS}`;
const BARRIER_SQL = `SELECT ${OTHER_LISTENERS}, pg_notify($2, $3)`;

export function hearPostgresChanges(
  connectionString: string,
  changes: Changes,
  reads: CrossProcessReads,
): Listener {
  let client: pg.Client | undefined;
  let ownPid = 0;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const barriers = barrierState();

  const lost = () => {
    changes.blind = true;
    client?.removeAllListeners();
    client?.end().catch(() => {});
    client = undefined;
    if (!stopped) timer = setTimeout(() => void listen(), RECONNECT_MS);
  };

  /** A query on the listening connection; not answered in time, the connection counts as lost. */
  const onListener = async <R extends pg.QueryResultRow>(
    connection: pg.Client,
    sql: string,
    values?: unknown[],
  ): Promise<pg.QueryResult<R> | undefined> => {
    // lost() ends the connection, which fails the query still on it (pg destroys the socket of a client
    // ended with a query active), so that whoever waits on it goes on.
    const timer = setTimeout(() => client === connection && lost(), ROUND_TRIP_TIMEOUT_MS);
    try {
      // A failure is the connection's: its error handler made the process blind.
      return await connection.query<R>(sql, values).catch(() => undefined);
    } finally {
      clearTimeout(timer);
    }
  };

  /** The other listeners as the database lists them now (and the barrier's notification, if given). */
  const readMembers = async (connection: pg.Client, barrier?: string): Promise<number[] | undefined> => {
    const asked = performance.now();
    const values = barrier ? [LISTENER_NAME, CHANNEL, barrier] : [LISTENER_NAME];
    const result = await onListener<{ members: number[] }>(
      connection,
      barrier ? BARRIER_SQL : MEMBERS_SQL,
      values,
    );
    const members = result?.rows[0]?.members;
    if (members) barriers.listed(members, asked);
    return members;
  };

  const listen = async () => {
    const connection = new pg.Client({
      connectionString,
      application_name: `${LISTENER_NAME} (joining)`,
      // A connection attempt into a silent network fails, and the next one follows.
      connectionTimeoutMillis: ROUND_TRIP_TIMEOUT_MS,
      keepAlive: true,
    });
    client = connection;
    connection.on("error", lost);
    connection.on("end", () => client === connection && lost());
    connection.on("notification", (message) => notified(connection, message));
    try {
      await connection.connect();
      const { rows } = await connection.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
      const pid = rows[0]?.pid ?? 0;
      await connection.query(`LISTEN ${CHANNEL}; LISTEN ${answersChannel(pid)}`);
      // Named a listener once it listens (a statement of its own: LISTEN takes effect at commit, a new
      // name at once), so that a barrier is never sent to one that cannot hear it.
      await connection.query(`SET application_name = '${LISTENER_NAME}'`);
      ownPid = pid;
      // A failed query that did not end the connection (a cancel, a statement timeout) would leave the
      // process blind with nothing to retry: it counts as the connection lost.
      const members = await readMembers(connection);
      if (members === undefined) return void (client === connection && lost());
      if (members.length > 0) {
        await new Promise((resolve) => setTimeout(resolve, JOIN_MS));
        if (client !== connection) return;
        if (!(await onListener(connection, ""))) return void (client === connection && lost());
      }
      if (stopped) return void connection.end();
      changes.everything();
      changes.blind = false;
    } catch {
      if (client === connection) lost();
    }
  };

  const notified = (connection: pg.Client, { channel, payload = "", processId }: pg.Notification) => {
    if (channel !== CHANNEL) return barriers.answered(processId, Number(payload));
    if (!payload.startsWith(BARRIER)) return heard(changes, payload);
    // Handled after every notification before it: the changes it stands behind are heard.
    if (processId !== ownPid) answer(connection, processId, payload.slice(BARRIER.length));
  };

  /** Answers to barriers, sent once per turn of the event loop for all heard in it. */
  const due = new Map<number, string>();
  const answer = (connection: pg.Client, writer: number, barrier: string) => {
    if (due.size === 0) {
      queueMicrotask(() => {
        const values = [...due].flatMap(([pid, number]) => [answersChannel(pid), number]);
        const calls = [...due.keys()].map((_, i) => `pg_notify($${2 * i + 1}, $${2 * i + 2})`);
        due.clear();
        if (client === connection) void onListener(connection, `SELECT ${calls.join(", ")}`, values);
      });
    }
    due.set(writer, barrier);
  };

  /** One barrier: resolves once every process listening when it was sent has heard it (or timed out). */
  const barrier = async (): Promise<void> => {
    const connection = client;
    if (!connection || changes.blind) return;
    const number = barriers.next();
    const members = await readMembers(connection, `${BARRIER}${number}`);
    if (members) await barriers.heardBy(members, number);
  };
  const sharedBarrier = shared(barrier);
  if (reads === "at-once") {
    changes.settle = () =>
      // Blind (reconnecting, joining): it cannot ask, and the write is heard as with "notified".
      // Alone: nobody to tell.
      !client || changes.blind || barriers.alone(performance.now() - MEMBERS_FRESH_MS)
        ? Promise.resolve()
        : sharedBarrier();
  }
  const heartbeat = setInterval(
    shared(async () => {
      if (client && !changes.blind) await readMembers(client);
    }),
    HEARTBEAT_MS,
  ).unref();

  const ready = listen();
  return {
    ready,
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      clearInterval(heartbeat);
      const connection = client;
      client = undefined;
      await connection?.end().catch(() => {});
    },
  };
}

/**
 * The other listening processes, and the answers to this process's barriers: which barrier each has heard
 * up to. A process that let one go unanswered is not waited for until it answers again.
 */
function barrierState() {
  let last = 0;
  let members: number[] = [];
  let listedAt = Number.NEGATIVE_INFINITY;
  const heardUpTo = new Map<number, number>();
  const silent = new Set<number>();
  const waiting = new Set<() => void>();
  return {
    next: () => ++last,
    /** The listeners as read by a query sent at `asked` (performance.now()). */
    listed(pids: number[], asked: number) {
      if (asked < listedAt) return;
      members = pids;
      listedAt = asked;
      // Forget those gone.
      for (const pid of heardUpTo.keys()) if (!pids.includes(pid)) heardUpTo.delete(pid);
      for (const pid of silent) if (!pids.includes(pid)) silent.delete(pid);
    },
    /**
     * No other listener, by a list asked for after `since`. One not waited for still gets barriers:
     * answering one, it is waited for again.
     */
    alone: (since: number) => listedAt >= since && members.length === 0,
    answered(pid: number, number: number) {
      if (!Number.isSafeInteger(number)) return;
      if (number > (heardUpTo.get(pid) ?? 0)) heardUpTo.set(pid, number);
      silent.delete(pid);
      for (const recheck of waiting) recheck();
    },
    heardBy(listed: number[], number: number): Promise<void> {
      const unheard = () => listed.filter((pid) => !silent.has(pid) && (heardUpTo.get(pid) ?? 0) < number);
      return new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          waiting.delete(recheck);
          resolve();
        };
        const recheck = () => unheard().length === 0 && done();
        const timer = setTimeout(() => {
          for (const pid of unheard()) silent.add(pid);
          done();
        }, ANSWER_TIMEOUT_MS);
        waiting.add(recheck);
        recheck();
      });
    },
  };
}

/**
 * Callers share runs of `run`: one that arrives while a run is on its way waits for the next, which
 * begins after it arrived (a barrier sent before a caller's commit does not stand behind it).
 */
function shared(run: () => Promise<void>): () => Promise<void> {
  let onTheWay: Promise<void> | undefined;
  let following: Promise<void> | undefined;
  const call = (): Promise<void> => {
    if (!onTheWay) {
      onTheWay = run().finally(() => {
        onTheWay = undefined;
      });
      return onTheWay;
    }
    following ??= onTheWay.then(() => {
      following = undefined;
      return call();
    });
    return following;
  };
  return call;
}

/** `<account> <table>`: rows inserted or updated; `<account>`: rows deleted; empty: no account's. */
function heard(changes: Changes, payload: string): void {
  const [account, table] = payload.split(" ");
  if (!account) changes.everything();
  else changes.changed(account, table);
}
