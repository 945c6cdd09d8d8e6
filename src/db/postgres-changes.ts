// PostgreSQL tells every server process of every committed change: the schema's triggers (migration
// data_changes) NOTIFY `cms_changes` with the account (and the table, for inserts), delivered at commit to
// each listening connection. One connection per process listens. What changed is checked in memory.
// A notification reaches the other processes a moment after the writer's commit returns (CROSS_PROCESS_READS,
// docs/deployment.md):
// - "at-once" (the default): before a request's first read, one round trip on that connection, shared by the
//   requests arriving meanwhile (`catchUp`), makes sure every commit made before the request began has been
//   heard (PostgreSQL sends a connection its notices before the answer to a later query): a write another
//   process acknowledged is read at once here too.
// - "notified": no round trip before reads; a kept answer may outlive another process's write by that moment
//   (measured by `npm run bench -- --cross-process`). A round trip every second still checks that the
//   connection is alive: nothing else would notice one gone silent without a reset (a partition, a
//   failed-over host), and the process would serve what it keeps for as long as that lasts.
// Until the listener is connected, and whenever it is lost, nothing kept is served (`blind`); it
// reconnects every second, and everything counts as changed once it is back.
import pg from "pg";
import type { CrossProcessReads } from "../config.ts";
import type { Changes } from "./changes.ts";

const CHANNEL = "cms_changes";
const RECONNECT_MS = 1_000;

export interface Listener {
  /** Resolves once listening (or once the first attempt failed: then it keeps trying). */
  ready: Promise<void>;
  stop(): Promise<void>;
}

/** A round trip on the listening connection not answered in this time counts as the connection lost. */
const CATCH_UP_TIMEOUT_MS = 2_000;
/** With "notified", how often the listening connection is checked (one round trip). */
const HEARTBEAT_MS = 1_000;

export function hearPostgresChanges(
  connectionString: string,
  changes: Changes,
  reads: CrossProcessReads,
): Listener {
  let client: pg.Client | undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  const lost = () => {
    changes.blind = true;
    client?.removeAllListeners();
    client?.end().catch(() => {});
    client = undefined;
    if (!stopped) timer = setTimeout(() => void listen(), RECONNECT_MS);
  };

  const listen = async () => {
    // Named, so that an operator (and a test) can tell it in pg_stat_activity.
    const connection = new pg.Client({
      connectionString,
      application_name: "cms changes listener",
      // A connection attempt into a silent network fails, and the next one follows.
      connectionTimeoutMillis: CATCH_UP_TIMEOUT_MS,
      keepAlive: true,
    });
    client = connection;
    connection.on("error", lost);
    connection.on("end", () => client === connection && lost());
    connection.on("notification", ({ payload }) => heard(changes, payload ?? ""));
    try {
      await connection.connect();
      await connection.query(`LISTEN ${CHANNEL}`);
      if (stopped) return void connection.end();
      changes.everything();
      changes.blind = false;
    } catch {
      if (client === connection) lost();
    }
  };

  /**
   * PostgreSQL sends a listening connection the notices of every commit before its answer to a later
   * query, so once a round trip on it returns, every write committed (by any process) before it began has
   * been heard. Requests share round trips: one that arrives while a trip is on its way waits for the next.
   */
  let onTheWay: Promise<void> | undefined;
  let following: Promise<void> | undefined;
  const roundTrip = async (): Promise<void> => {
    const connection = client;
    // Blind: every stamp is a change of everything already.
    if (!connection || changes.blind) return;
    // Not answered in time: lost() ends the connection, which fails the query still on it (pg destroys
    // the socket of a client ended with a query active), so that the requests waiting on it go on.
    const timer = setTimeout(() => client === connection && lost(), CATCH_UP_TIMEOUT_MS);
    // An empty statement: nothing to plan and no row to parse, and still answered after the notices
    // (a kept read's throughput lost to the round trip fell from about a third to a fifth against
    // `SELECT 1`). A failure is the connection's: its error handler made the process blind.
    await connection.query("").catch(() => {});
    clearTimeout(timer);
  };
  const catchUp = (): Promise<void> => {
    if (!onTheWay) {
      onTheWay = roundTrip().finally(() => {
        onTheWay = undefined;
      });
      return onTheWay;
    }
    following ??= onTheWay.then(() => {
      following = undefined;
      return catchUp();
    });
    return following;
  };
  if (reads === "at-once") changes.catchUp = catchUp;
  const heartbeat =
    reads === "notified" ? setInterval(() => void catchUp(), HEARTBEAT_MS).unref() : undefined;

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

/** `<account> <table>`: rows inserted or updated; `<account>`: rows deleted; empty: no account's. */
function heard(changes: Changes, payload: string): void {
  const [account, table] = payload.split(" ");
  if (!account) changes.everything();
  else changes.changed(account, table);
}
