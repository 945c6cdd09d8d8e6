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
// for again until it answers one (postgres-barriers.ts). A process sends barriers once its connection
// listens, also while it joins (below); with its connection lost, a write's barrier waits for the next
// connection (at most RELISTEN_WAIT_MS), and one whose answers were on a lost connection is sent again.
//
// Who listens is read from pg_stat_activity (a connection is named a listener once it listens), with each
// barrier and with the heartbeat: a round trip every HEARTBEAT_MS, which also checks that the connection
// is alive (nothing else would notice one gone silent without a reset: a partition, a failed-over host). A
// process that knows of no other listener, as read within the last MEMBERS_FRESH_MS, sends no barrier. One
// that begins to listen while others do may be unknown to them for that long: until JOIN_MS have passed
// and a round trip on its connection has brought it every notification committed meanwhile, it keeps
// nothing (`blind`), so that no write it was not waited for can have ended something it kept.
// Until the listener is connected, and whenever it is lost, nothing kept is served (`blind`); it
// reconnects every second, and everything counts as changed once it is back.
//
// The lease: a round trip on the listening connection, once answered, has brought every notification
// committed before it was sent. Kept answers are served only within LEASE_MS of the last such round trip
// sent (changes.ts `heardUntil`), shorter than the ANSWER_TIMEOUT_MS after which a writer stops waiting for
// a process. So a process that stalled (a long pause of its event loop, a slow network) and was not waited
// for serves nothing kept until it has heard what it missed. A writer that stopped waiting for it waits
// again once it hears from it; one that began a barrier before that would not. So a process whose lease
// ran out says it is back (a notification every other process hears), and takes a lease again only from
// a round trip sent after that was committed: by then a writer hears it is back before its next barrier
// is answered. Before its first lease, a process counts one as running from when the others could first
// wait for it (it was named a listener, or said it is back). A writer's new listening connection waits
// for every process again: what they said while it did not listen went unheard. (A process whose round
// trips take over a second without its lease running out may be skipped without knowing it: the limit of
// this scheme.)
//
// A process that keeps nothing (`keeps` false: `cms mcp`, a server with both caches off) has nothing a write
// could leave stale: it listens under another name, so that no writer waits for it, answers no barrier and
// takes no lease, and sends barriers for its own writes as any other.
import { performance } from "node:perf_hooks";
import { setTimeout as delay } from "node:timers/promises";
import pg from "pg";
import type { CrossProcessReads } from "../config.ts";
import type { Changes } from "./changes.ts";
import { ANSWER_TIMEOUT_MS, Barriers, shared } from "./postgres-barriers.ts";

const CHANNEL = "cms_changes";
/** What a listening connection is named once it listens: how the processes find one another. */
const LISTENER_NAME = "cms changes listener";
/** The name of a listening connection whose process keeps nothing: the others do not wait for it. */
const KEEPS_NOTHING_NAME = "cms changes listener, keeping nothing";
/** A barrier's payload on CHANNEL: `!<number>`; account IDs, the other payloads, never begin with it. */
const BARRIER = "!";
/** A process whose lease ran out is back: wait for its answers again (also never an account ID). */
const BACK = "?";
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
/** How often the listening connection is checked, and the listeners read (one round trip). */
const HEARTBEAT_MS = 500;
/** How long after a round trip was sent kept answers are served: under ANSWER_TIMEOUT_MS, by a margin. */
const LEASE_MS = ANSWER_TIMEOUT_MS - 500;
/** How long a write's barrier waits for a listening connection while it is opened again. */
const RELISTEN_WAIT_MS = RECONNECT_MS + ROUND_TRIP_TIMEOUT_MS;
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
  keeps = true,
): Listener {
  const name = keeps ? LISTENER_NAME : KEEPS_NOTHING_NAME;
  /** The connection being opened or listening. */
  let client: pg.Client | undefined;
  /** The connection once it listens (and is named a listener): barriers go on it, answers come on it. */
  let listening: pg.Client | undefined;
  let ownPid = 0;
  let stopped = false;
  /** The next attempt to listen, while the connection is lost. */
  let timer: NodeJS.Timeout | undefined;
  const stopping = new AbortController();
  const barriers = new Barriers();
  /** Waits for a listening connection, each told when there is one (or when stopping). */
  const waitingToListen = new Set<() => void>();
  /** Since when no connection listens (performance.now()); a write waits for one RELISTEN_WAIT_MS from it. */
  let downSince: number | undefined = performance.now();
  /** A lease is taken only from round trips sent after this (after a lapsed lease, once back is said). */
  let renewAfter = Number.NEGATIVE_INFINITY;
  /**
   * Before its first lease, the process counts one as running until this: LEASE_MS after the others could
   * first wait for it (it was named a listener, or said it is back). Past it, or past its lease, a round
   * trip answered gives no lease before it says it is back (a writer stops waiting after ANSWER_TIMEOUT_MS).
   */
  let freshUntil = Number.NEGATIVE_INFINITY;
  changes.heardUntil = Number.NEGATIVE_INFINITY;

  const lost = () => {
    changes.blind = true;
    listening = undefined;
    downSince ??= performance.now();
    barriers.lost();
    client?.removeAllListeners();
    client?.end().catch(() => {});
    client = undefined;
    if (!stopped) timer = setTimeout(() => void listen(), RECONNECT_MS);
  };

  /**
   * A query on the listening connection; not answered in time, or failed, the connection counts as lost
   * (a failure that did not end it, a cancel or a statement timeout, would leave the process blind or
   * without a lease, with nothing to retry). Answered, every notification committed before it was sent
   * has been heard: the lease runs from then.
   */
  const onListener = async <R extends pg.QueryResultRow>(
    connection: pg.Client,
    sql: string,
    values?: unknown[],
  ): Promise<pg.QueryResult<R> | undefined> => {
    // lost() ends the connection, which fails the query still on it (pg destroys the socket of a client
    // ended with a query active), so that whoever waits on it goes on.
    const overdue = setTimeout(() => client === connection && lost(), ROUND_TRIP_TIMEOUT_MS);
    let sent = performance.now();
    try {
      const sending = () => {
        sent = performance.now();
      };
      const result = await inTurn<R>(connection, sql, values, sending).catch(() => undefined);
      if (result && connection === listening && keeps) renewLease(connection, sent);
      else if (!result && client === connection) lost();
      return result;
    } finally {
      clearTimeout(overdue);
    }
  };

  const renewLease = (connection: pg.Client, sent: number) => {
    if (sent <= renewAfter) return;
    if (performance.now() <= Math.max(changes.heardUntil, freshUntil)) {
      changes.heardUntil = Math.max(changes.heardUntil, sent + LEASE_MS);
      return;
    }
    // A writer may have stopped waiting for this process meanwhile: it is told before a lease is taken.
    renewAfter = Number.POSITIVE_INFINITY;
    const saying = performance.now();
    void onListener(connection, "SELECT pg_notify($1, $2)", [CHANNEL, BACK]).then((said) => {
      if (!said || connection !== listening) return;
      renewAfter = performance.now();
      freshUntil = saying + LEASE_MS;
      changes.heardUntil = Number.NEGATIVE_INFINITY;
    });
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
      application_name: `${name} (joining)`,
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
      const { rows } = await inTurn<{ pid: number }>(connection, "SELECT pg_backend_pid() AS pid");
      const pid = rows[0]?.pid ?? 0;
      await inTurn(connection, `LISTEN ${CHANNEL}; LISTEN ${answersChannel(pid)}`);
      // Named a listener once it listens (a statement of its own: LISTEN takes effect at commit, a new
      // name at once), so that a barrier is never sent to one that cannot hear it.
      const named = performance.now();
      await inTurn(connection, `SET application_name = '${name}'`);
      if (client !== connection) return;
      ownPid = pid;
      // From here its barriers can be answered, while it still keeps nothing itself.
      listening = connection;
      // A new backend: no writer has stopped waiting for it.
      downSince = undefined;
      barriers.relisten();
      renewAfter = Number.NEGATIVE_INFINITY;
      freshUntil = named + LEASE_MS;
      changes.heardUntil = Number.NEGATIVE_INFINITY;
      for (const wake of waitingToListen) wake();
      const members = await readMembers(connection);
      if (members === undefined) return;
      if (members.length > 0 && keeps) {
        await delay(JOIN_MS, undefined, { signal: stopping.signal });
        if (client !== connection) return;
        if (!(await onListener(connection, ""))) return;
      }
      if (client !== connection) return;
      changes.everything();
      changes.blind = false;
    } catch {
      if (client === connection) lost();
    }
  };

  const notified = (connection: pg.Client, { channel, payload = "", processId }: pg.Notification) => {
    if (channel !== CHANNEL) return barriers.answered(processId, Number(payload));
    if (payload === BACK) return barriers.answering(processId);
    if (!payload.startsWith(BARRIER)) return heard(changes, payload);
    // Handled after every notification before it: the changes it stands behind are heard.
    if (keeps && processId !== ownPid) answer(connection, processId, payload.slice(BARRIER.length));
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

  /**
   * The listening connection; while it is opened again, waited for until RELISTEN_WAIT_MS after it was
   * lost (or `until`): a process whose connection stays down makes its writes wait no longer.
   */
  const nextListening = (until: number): Promise<pg.Client | undefined> => {
    const ms = Math.min(until, (downSince ?? 0) + RELISTEN_WAIT_MS) - performance.now();
    if (listening || stopped || ms <= 0) return Promise.resolve(listening);
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(giveUp);
        waitingToListen.delete(wake);
        resolve(listening);
      };
      const giveUp = setTimeout(wake, ms);
      waitingToListen.add(wake);
    });
  };

  /**
   * One barrier: resolves once every process listening when it was sent has heard it (or timed out). A
   * barrier needs a listening connection of this process, and is sent again on the next one if the
   * connection is lost before the answers came; with none in time, the write is heard as with "notified".
   */
  const barrier = async (): Promise<void> => {
    const until = performance.now() + RELISTEN_WAIT_MS;
    for (;;) {
      const connection = await nextListening(until);
      if (!connection) return;
      const number = barriers.next();
      const members = await readMembers(connection, `${BARRIER}${number}`);
      if (stopped) return;
      if (members && (await barriers.heardBy(members, number))) return;
    }
  };
  const sharedBarrier = shared(barrier);
  if (reads === "at-once") {
    // Alone: nobody to tell.
    changes.settle = () =>
      barriers.alone(performance.now() - MEMBERS_FRESH_MS) ? Promise.resolve() : sharedBarrier();
  }
  const heartbeat = setInterval(
    shared(async () => {
      if (listening) await readMembers(listening);
    }),
    HEARTBEAT_MS,
  ).unref();

  const ready = listen();
  return {
    ready,
    stop: async () => {
      stopped = true;
      changes.blind = true;
      stopping.abort();
      clearTimeout(timer);
      clearInterval(heartbeat);
      const connection = client;
      client = undefined;
      listening = undefined;
      for (const wake of waitingToListen) wake();
      barriers.lost();
      await connection?.end().catch(() => {});
    },
  };
}

/**
 * A query on `connection`, sent once the one asked before it is answered (`sending` is told when): the
 * barriers' reasoning rests on that order, and pg's own queue for queries asked while one runs is
 * deprecated (a warning on stderr, removed in pg 9).
 */
const turns = new WeakMap<pg.Client, Promise<unknown>>();
function inTurn<R extends pg.QueryResultRow>(
  connection: pg.Client,
  sql: string,
  values?: unknown[],
  sending?: () => void,
): Promise<pg.QueryResult<R>> {
  const next = (turns.get(connection) ?? Promise.resolve()).then(() => {
    sending?.();
    return connection.query<R>(sql, values);
  });
  turns.set(
    connection,
    next.catch(() => {}),
  );
  return next;
}

/** `<account> <table>`: rows inserted or updated; `<account>`: rows deleted; empty: no account's. */
function heard(changes: Changes, payload: string): void {
  const [account, table] = payload.split(" ");
  if (!account) changes.everything();
  else changes.changed(account, table);
}
