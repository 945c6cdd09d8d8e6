// The better-sqlite3 adapter shares one connection between Prisma's transactions and everything else:
// a query issued by another request while a transaction is open would run inside it and vanish with
// its rollback. This wrapper makes other queries wait until the open transaction ends. It also keeps
// prepared statements: the adapter prepares every query anew, which SQLite parses and plans each time.
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import Database from "better-sqlite3";
import { type DatabaseGeneration, sqliteGeneration } from "./generation.ts";

type Factory = InstanceType<typeof PrismaBetterSQLite3>;
type Adapter = Awaited<ReturnType<Factory["connect"]>>;
type Transaction = Awaited<ReturnType<Adapter["startTransaction"]>>;

export function serializedSqlite(
  file: string,
  options: { keepStatistics: boolean; connected(generation: DatabaseGeneration): void },
): Factory {
  prepareFile(file);
  const factory = new PrismaBetterSQLite3({ url: file, timeout: 10_000 });
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = await connect();
    const client = (adapter as unknown as { client: Database.Database }).client;
    options.connected(sqliteGeneration(adapter, client));
    client.pragma("synchronous = NORMAL");
    reuseStatements(client);
    const serialized = serialize(adapter);
    if (options.keepStatistics) keepStatistics(serialized);
    return serialized;
  };
  return factory;
}

export const STATISTICS_CHECK_MS = 60_000;

/**
 * Without statistics SQLite guesses that `accountId = ?` matches a few rows, and reads every entry of
 * the account through an accountId index instead of looking 20 IDs up by primary key (20 ms instead of
 * 0.1 ms at 50,000 entries). So the statistics are gathered (ANALYZE, sampling at most 400 rows an
 * index) at start and whenever the entries have more than doubled since, checked every minute through
 * max(rowid), which costs nothing.
 */
function keepStatistics(adapter: Adapter): void {
  const query = async (sql: string) =>
    (await adapter.queryRaw({ sql, args: [], argTypes: [] })).rows as unknown[][];
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

const MAX_STATEMENTS = 500;

/**
 * The adapter opens transactions with a plain (deferred) BEGIN. With another process writing to the same
 * file, a deferred transaction whose write has to wait for that process's lock finds its snapshot stale
 * once it gets it, and SQLite then answers SQLITE_BUSY at once instead of waiting: a 500 under concurrent
 * writers. IMMEDIATE takes the write lock at BEGIN, waiting up to the busy timeout like any other write.
 */
const BEGIN_WRITE = "BEGIN IMMEDIATE";

/**
 * Makes `client.prepare` answer a cached statement per SQL text (and opens transactions as BEGIN_WRITE). The adapter binds parameters with
 * `prepare(sql).bind(args)`, which better-sqlite3 allows once per statement, so each call gets a light
 * handle that passes the arguments to the shared statement on every run instead. A statement's columns
 * are read once: better-sqlite3 builds them anew on every call, and the adapter asks on every read.
 */
export function reuseStatements(client: Database.Database): void {
  const prepare = client.prepare.bind(client);
  const statements = new Map<string, Database.Statement>();
  const statement = (sql: string) => {
    let found = statements.get(sql);
    if (found) return found;
    found = prepare(sql);
    if (statements.size >= MAX_STATEMENTS) {
      const oldest = statements.keys().next().value;
      if (oldest !== undefined) statements.delete(oldest);
    }
    statements.set(sql, found);
    return found;
  };
  const columns = new WeakMap<Database.Statement, Database.ColumnDefinition[]>();
  const columnsOf = (shared: Database.Statement) => {
    const known = columns.get(shared);
    if (known) return known;
    const found = shared.columns();
    columns.set(shared, found);
    return found;
  };
  const handle = (shared: Database.Statement, args: unknown[]) => ({
    reader: shared.reader,
    bind: (bound: unknown[]) => handle(shared, bound),
    columns: () => columnsOf(shared),
    run: () => shared.run(...args),
    get: () => shared.get(...args),
    all: () => shared.all(...args),
    raw: () => ({ all: () => shared.raw(true).all(...args) }),
  });
  // Only the adapter calls prepare on this connection; it uses exactly the methods of `handle`.
  client.prepare = ((sql: string) => {
    const shared = statement(sql === "BEGIN" ? BEGIN_WRITE : sql);
    // A statement last used in raw mode returns objects again unless told otherwise.
    if (shared.reader) shared.raw(false);
    return handle(shared, []);
  }) as unknown as typeof client.prepare;
}

/**
 * WAL lets the CLI and readers use the file while the server writes; it is a property of the file.
 * Commits wait for the disk at checkpoints only (synchronous = NORMAL, set per connection): a crash
 * of the process loses nothing, a power cut may lose the last commits but never corrupts the file.
 */
function prepareFile(file: string): void {
  const db = new Database(file, { timeout: 10_000 });
  db.pragma("journal_mode = WAL");
  db.close();
}

function serialize(adapter: Adapter): Adapter {
  let open: Promise<void> = Promise.resolve();
  const idle = async () => {
    // A transaction may start while we waited for the previous one: wait until none is open.
    for (let current = open; ; current = open) {
      await current;
      if (current === open) return;
    }
  };
  const queryRaw = adapter.queryRaw.bind(adapter);
  const executeRaw = adapter.executeRaw.bind(adapter);
  const startTransaction = adapter.startTransaction.bind(adapter);
  adapter.queryRaw = async (query) => {
    await idle();
    return queryRaw(query);
  };
  adapter.executeRaw = async (query) => {
    await idle();
    return executeRaw(query);
  };
  adapter.startTransaction = async (isolationLevel) => {
    await idle();
    let end = () => {};
    open = new Promise((resolve) => {
      end = resolve;
    });
    const tx: Transaction = await startTransaction(isolationLevel);
    const commit = tx.commit.bind(tx);
    const rollback = tx.rollback.bind(tx);
    tx.commit = async () => {
      await commit();
      end();
    };
    tx.rollback = async () => {
      await rollback();
      end();
    };
    return tx;
  };
  return adapter;
}
