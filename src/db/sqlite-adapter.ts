// The better-sqlite3 adapter as shipped, behind a wrapper of its public interface (a driver adapter is
// Prisma's public extension point). Why a wrapper at all: the adapter shares one connection between
// Prisma's transactions and everything else, so a query another request issues while a transaction is open
// would run inside it and vanish with its rollback; and it begins transactions DEFERRED (see
// `beginImmediate`). Here queries wait while a transaction is open, and transactions begin one after
// another, IMMEDIATE. Durability is SQLite's own: `synchronous = FULL` (SQLITE_SYNCHRONOUS) makes COMMIT
// wait for the disk.
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import type { SqliteSynchronous } from "../config.ts";

type Factory = InstanceType<typeof PrismaBetterSQLite3>;
type Adapter = Awaited<ReturnType<Factory["connect"]>>;
type Transaction = Awaited<ReturnType<Adapter["startTransaction"]>>;
type Query = Parameters<Adapter["queryRaw"]>[0];
type Queryable = Pick<Adapter, "provider" | "adapterName" | "queryRaw" | "executeRaw">;

const statement = (sql: string): Query => ({ sql, args: [], argTypes: [] });

/** Statements that cannot write: every other one sent outside a transaction counts as a write. */
const READ = /^\s*(SELECT|PRAGMA data_version)\b/i;

export interface SqliteConnection {
  factory: Pick<Factory, "provider" | "adapterName" | "connect">;
  /**
   * Changes whenever anything may have been committed to the file since: SQLite's `data_version` (other
   * connections' commits) with this connection's own (`Serialized.version`). Undefined before the
   * connection is opened.
   */
  dataVersion(): Promise<string | undefined>;
  /**
   * Runs many statements at once (better-sqlite3's `exec`), on the connection as it is: inside the
   * transaction that is open, which is what migrate.ts opens it for.
   */
  executeScript(sql: string): Promise<void>;
}

export function serializedSqlite(
  file: string,
  options: { keepStatistics: boolean; synchronous: SqliteSynchronous },
): SqliteConnection {
  const shipped = new PrismaBetterSQLite3({ url: file, timeout: 10_000 });
  let connected: Serialized | undefined;
  const factory: SqliteConnection["factory"] = {
    provider: shipped.provider,
    adapterName: shipped.adapterName,
    connect: async () => {
      const adapter = await shipped.connect();
      // WAL lets the CLI and readers use the file while the server writes (a property of the file).
      await adapter.queryRaw(statement("PRAGMA journal_mode = WAL"));
      await adapter.executeRaw(statement(`PRAGMA synchronous = ${options.synchronous.toUpperCase()}`));
      // Sorts and the triggers' work stay in memory instead of temporary files.
      await adapter.executeRaw(statement("PRAGMA temp_store = MEMORY"));
      connected = serialize(adapter);
      if (options.keepStatistics) keepStatistics(connected);
      return connected;
    },
  };
  const executeScript = async (sql: string) => {
    if (!connected) throw new Error("executeScript: the SQLite database is not connected yet");
    await connected.executeScript(sql);
  };
  const dataVersion = async () => connected?.version();
  return { factory, executeScript, dataVersion };
}

const STATISTICS_CHECK_MS = 60_000;

/**
 * Without statistics SQLite guesses that `accountId = ?` matches a few rows, and reads every entry of
 * the account through an accountId index instead of looking 20 IDs up by primary key (20 ms instead of
 * 0.1 ms at 50,000 entries). So the statistics are gathered (ANALYZE, sampling at most 400 rows an
 * index) at start and whenever the entries have more than doubled since, checked every minute through
 * max(rowid), which costs nothing.
 */
function keepStatistics(adapter: Adapter): void {
  const query = async (sql: string) => (await adapter.queryRaw(statement(sql))).rows as unknown[][];
  let analyzedRows = -1;
  const check = async () => {
    const rows = Number((await query('SELECT max(rowid) FROM "Entry"'))[0]?.[0] ?? 0);
    if (analyzedRows >= 0 && rows <= 2 * analyzedRows + 100) return;
    await query("PRAGMA analysis_limit = 400");
    await query("ANALYZE");
    analyzedRows = rows;
  };
  const run = () => void check().catch(() => {});
  run();
  setInterval(run, STATISTICS_CHECK_MS).unref();
}

/**
 * Queries wait while a transaction is open or waiting to begin; transactions begin one after another.
 * `last` is the end of the last transaction begun or waiting: each chains onto it as it asks to begin.
 * A transaction's end releases the others whether its COMMIT or ROLLBACK succeeded or not.
 */
interface Serialized extends Adapter {
  /**
   * SQLite's data_version (other connections' commits) with this connection's own: statements that may
   * write sent outside a transaction, and transactions ended. Read at once, also while a transaction is
   * open: what it wrote is not committed before it ends.
   */
  version(): Promise<string>;
}

function serialize(adapter: Adapter): Serialized {
  let last: Promise<void> = Promise.resolve();
  let writes = 0;
  const counted = <T>(query: Query, run: () => Promise<T>) => {
    if (!READ.test(query.sql)) writes++;
    return run();
  };
  // The query starts in the same step as the check that nothing is open (the driver runs it at once).
  const whenIdle = async <T>(run: () => Promise<T>): Promise<T> => {
    for (let current = last; ; current = last) {
      await current;
      if (current === last) return run();
    }
  };
  return {
    provider: adapter.provider,
    adapterName: adapter.adapterName,
    version: async () => {
      const { rows } = await adapter.queryRaw(statement("PRAGMA data_version"));
      return `${rows[0]?.[0]}.${writes}`;
    },
    queryRaw: (query) => whenIdle(() => counted(query, () => adapter.queryRaw(query))),
    executeRaw: (query) => whenIdle(() => counted(query, () => adapter.executeRaw(query))),
    // A script (the migrations) runs inside the transaction migrate.ts opens for it.
    executeScript: (script) => {
      writes++;
      return adapter.executeScript(script);
    },
    ...(adapter.getConnectionInfo && { getConnectionInfo: adapter.getConnectionInfo.bind(adapter) }),
    dispose: () => adapter.dispose(),
    startTransaction: async () => {
      const previous = last;
      let end = () => {};
      last = previous.then(() => new Promise<void>((resolve) => (end = resolve)));
      await previous;
      try {
        return await beginImmediate(adapter, () => {
          writes++;
          end();
        });
      } catch (error) {
        end();
        throw error;
      }
    },
  };
}

/**
 * A transaction begun IMMEDIATE and ended with its own COMMIT or ROLLBACK, through the adapter's public
 * queries. The adapter's own begins with a plain (deferred) BEGIN: with another process writing to the
 * same file, a deferred transaction whose write has to wait for that process's lock finds its snapshot
 * stale once it gets it, and SQLite then answers SQLITE_BUSY at once instead of waiting: a 500 under
 * concurrent writers. IMMEDIATE takes the write lock at BEGIN, waiting up to the busy timeout like any
 * other write. A failed COMMIT is rolled back, so the connection is never left inside the transaction.
 */
async function beginImmediate(adapter: Queryable, ended: () => void): Promise<Transaction> {
  await adapter.executeRaw(statement("BEGIN IMMEDIATE"));
  const end = async (sql: "COMMIT" | "ROLLBACK") => {
    try {
      await adapter.executeRaw(statement(sql));
    } catch (error) {
      // When SQLite has ended the transaction already this fails too, and nothing is left to undo.
      if (sql === "COMMIT") await adapter.executeRaw(statement("ROLLBACK")).catch(() => {});
      throw error;
    } finally {
      ended();
    }
  };
  return {
    provider: adapter.provider,
    adapterName: adapter.adapterName,
    // Prisma calls commit() and rollback() instead of sending COMMIT or ROLLBACK itself.
    options: { usePhantomQuery: true },
    queryRaw: (query) => adapter.queryRaw(query),
    executeRaw: (query) => adapter.executeRaw(query),
    commit: () => end("COMMIT"),
    rollback: () => end("ROLLBACK"),
  };
}
