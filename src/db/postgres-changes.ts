// PostgreSQL tells every server process of every committed change: the schema's triggers (migration
// data_changes) NOTIFY `cms_changes` with the account (and the table, for inserts), delivered at commit to
// each listening connection. One connection per process listens; a request then checks what changed in
// memory, without a round trip. Another process's write is seen here once its notification arrives
// (milliseconds; test/per-account-cache.test.ts measures it): the bounded delay in docs/performance.md.
// Until the listener is connected, and whenever it is lost, nothing kept is served (`blind`); it
// reconnects every second, and everything counts as changed once it is back.
import pg from "pg";
import type { Changes } from "./changes.ts";

const CHANNEL = "cms_changes";
const RECONNECT_MS = 1_000;

export interface Listener {
  /** Resolves once listening (or once the first attempt failed: then it keeps trying). */
  ready: Promise<void>;
  stop(): Promise<void>;
}

export function hearPostgresChanges(connectionString: string, changes: Changes): Listener {
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
    const connection = new pg.Client({ connectionString });
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

  const ready = listen();
  return {
    ready,
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
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
