// The better-sqlite3 adapter shares one connection between Prisma's transactions and everything else:
// a query issued by another request while a transaction is open would run inside it and vanish with
// its rollback. This wrapper makes other queries wait until the open transaction ends, and begins and
// ends transactions itself (see `immediateTransactions`). It also keeps prepared statements: the adapter
// prepares every query anew, which SQLite parses and plans each time.
import { realpathSync } from "node:fs";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import Database from "better-sqlite3";
import type { SqliteSynchronous } from "../config.ts";
import type { Changes } from "./changes.ts";
import { type ScheduleReads, sqliteScheduleReads } from "./generation.ts";
import { hearSqliteChanges, type TransactionEnds } from "./sqlite-changes.ts";
import { statementsByText } from "./sqlite-statements.ts";
import { WalFlush } from "./wal-flush.ts";

type Factory = InstanceType<typeof PrismaBetterSQLite3>;
type Adapter = Awaited<ReturnType<Factory["connect"]>>;
type Transaction = Awaited<ReturnType<Adapter["startTransaction"]>>;

export interface SqliteConnection {
  factory: Factory;
  /**
   * Runs many statements at once (better-sqlite3's `exec`), on the connection as it is: inside the
   * transaction that is open, which is what migrate.ts opens it for. Outside one it would not wait for
   * another's end, so nothing else calls it.
   */
  executeScript(sql: string): Promise<void>;
  /** Why the connection answers nothing any more (a write could not be flushed: wal-flush.ts). */
  failure(): Error | undefined;
}

export function serializedSqlite(
  file: string,
  options: {
    keepStatistics: boolean;
    changes: Changes;
    connected(reads: ScheduleReads): void;
    synchronous: SqliteSynchronous;
  },
): SqliteConnection {
  prepareFile(file);
  const factory = new PrismaBetterSQLite3({ url: file, timeout: 10_000 });
  const connect = factory.connect.bind(factory);
  let connected: Adapter | undefined;
  let flushedOf: WalFlush | undefined;
  factory.connect = async () => {
    const adapter = await connect();
    const client = (adapter as unknown as { client: Database.Database }).client;
    // First, so that every wrapper added below (the query counter's) sees these.
    immediateTransactions(adapter, hearSqliteChanges(client, options.changes));
    options.connected(sqliteScheduleReads(client));
    // `full`: a write is answered once it is on disk, so a power cut loses nothing acknowledged; in WAL
    // mode the flush runs beside the event loop (wal-flush.ts). `normal`: at checkpoints only.
    const wal = client.pragma("journal_mode", { simple: true }) === "wal";
    // SQLite names the WAL after the file's real path (it follows symbolic links).
    const flushed =
      options.synchronous === "full" && wal ? new WalFlush(`${realpathSync(file)}-wal`) : undefined;
    client.pragma(`synchronous = ${options.synchronous === "full" && !flushed ? "FULL" : "NORMAL"}`);
    // Temporary files in memory. Every write here fires a trigger (the change triggers, the revision ones),
    // and with them on disk (SQLite's default) a create opened a temporary file about every other time and
    // wrote 53 blocks to the WAL instead of 44; its INSERT took 0.37 ms instead of 0.29. Sorts that no index
    // serves then stay in memory too, never spilled: here they hold at most a page's offset and limit of rows.
    client.pragma("temp_store = MEMORY");
    const writes = reuseStatements(client);
    flushedOf = flushed;
    const inTransaction = () => client.inTransaction;
    const serialized = serialize(adapter, flushed && { writes, flushed, inTransaction });
    if (options.keepStatistics) keepStatistics(serialized);
    // A script (the migrations) runs in a transaction whose COMMIT is then flushed like any other write.
    const executeScript = serialized.executeScript.bind(serialized);
    serialized.executeScript = (script) => {
      writes.count++;
      return executeScript(script);
    };
    const dispose = serialized.dispose.bind(serialized);
    serialized.dispose = async () => {
      await dispose();
      await flushed?.close();
    };
    connected = serialized;
    return serialized;
  };
  const executeScript = async (sql: string) => {
    if (!connected) throw new Error("executeScript: the SQLite database is not connected yet");
    await connected.executeScript(sql);
  };
  return { factory, executeScript, failure: () => flushedOf?.failed };
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

/** SQL texts whose statements are kept (each with at most LIMITS_PER_TEXT more: sqlite-statements.ts). */
export const MAX_TEXTS = 500;

/**
 * Makes `client.prepare` answer a cached statement per SQL text. The adapter binds parameters with
 * `prepare(sql).bind(args)`, which better-sqlite3 allows once per statement, so each call gets a light
 * handle that passes the arguments to the shared statement on every run instead. A statement's columns
 * are read once: better-sqlite3 builds them anew on every call, and the adapter asks on every read. A
 * trailing bound LIMIT is written into the text, which SQLite would otherwise plan anew (sqlite-statements.ts).
 *
 * Why this stand-in for `prepare` is still here: @prisma/adapter-better-sqlite3 (6.19) has no option to
 * keep statements and exports neither its queryable nor its value conversions, so no public surface can
 * keep them. Measured on the list of entries' SQL: preparing costs some 130 µs and reading the columns
 * 75 µs, on every read, against 400 µs a whole request at the throughput the bench targets. What would
 * replace it is a statement cache inside the adapter (a patch of the shape upstream could take).
 */
export function reuseStatements(client: Database.Database): WriteCount {
  const statementFor = statementsByText(client.prepare.bind(client), MAX_TEXTS);
  const columns = new WeakMap<Database.Statement, Database.ColumnDefinition[]>();
  const columnsOf = (shared: Database.Statement) => {
    const known = columns.get(shared);
    if (known) return known;
    const found = shared.columns();
    columns.set(shared, found);
    return found;
  };
  // Exactly what the adapter calls (6.19: `performIO` and `executeIO`); test/sqlite-statements.test.ts
  // runs each. Readers are only ever read raw, so a shared statement stays in raw mode.
  const writes: WriteCount = { count: 0 };
  const counted = (shared: Database.Statement) => {
    if (!shared.readonly) writes.count++;
  };
  const handle = (shared: Database.Statement, args: unknown[]) => ({
    reader: shared.reader,
    columns: () => columnsOf(shared),
    run: () => {
      counted(shared);
      return shared.run(...args);
    },
    raw: () => ({
      all: () => {
        counted(shared);
        return shared.raw(true).all(...args);
      },
    }),
  });
  // Only the adapter calls prepare on this connection once this is in place (better-sqlite3's own
  // `pragma` prepares natively). Other readers of the connection bind the original first (generation.ts).
  // The statement is looked up when bound, so that a text whose limit is written in is not kept as well.
  client.prepare = ((sql: string) => {
    const bind = (args: unknown[]) => {
      const found = statementFor(sql, args);
      return handle(found.statement, found.args);
    };
    return {
      bind,
      get reader() {
        return bind([]).reader;
      },
      columns: () => bind([]).columns(),
      run: () => bind([]).run(),
      raw: () => bind([]).raw(),
    };
  }) as unknown as typeof client.prepare;
  return writes;
}

/**
 * Statements run that may have written, counted before they run: those SQLite does not call read-only
 * (`sqlite3_stmt_readonly`). It calls BEGIN, COMMIT and RELEASE read-only (`serialize` looks at the
 * transaction for those), and `PRAGMA optimize`, which writes statistics: nothing here sends it.
 */
export interface WriteCount {
  count: number;
}

/**
 * WAL lets the CLI and readers use the file while the server writes; it is a property of the file.
 * When commits wait for the disk is set per connection (`synchronous`, above).
 */
function prepareFile(file: string): void {
  const db = new Database(file, { timeout: 10_000 });
  db.pragma("journal_mode = WAL");
  db.close();
}

const statement = (sql: string) => ({ sql, args: [], argTypes: [] });

/**
 * Transactions begin IMMEDIATE and end with their own COMMIT or ROLLBACK, through the adapter's public
 * queries. The adapter's own begin with a plain (deferred) BEGIN: with another process writing to the
 * same file, a deferred transaction whose write has to wait for that process's lock finds its snapshot
 * stale once it gets it, and SQLite then answers SQLITE_BUSY at once instead of waiting: a 500 under
 * concurrent writers. IMMEDIATE takes the write lock at BEGIN, waiting up to the busy timeout like any
 * other write. The adapter's own also leave the connection inside the transaction when Prisma's COMMIT
 * fails (a deferred constraint, a busy file): Prisma then neither ends it nor rolls it back. Here a
 * failed COMMIT is rolled back. SQLite's transactions are serializable whatever level is asked.
 */
function immediateTransactions(adapter: Adapter, ends: TransactionEnds): void {
  const queryRaw = adapter.queryRaw.bind(adapter);
  const executeRaw = adapter.executeRaw.bind(adapter);
  adapter.startTransaction = async () => {
    await executeRaw(statement("BEGIN IMMEDIATE"));
    // Through `tx`, whose queries the wrappers added later count (generation.ts, query-count.ts).
    const end = async (sql: "COMMIT" | "ROLLBACK") => {
      try {
        await tx.executeRaw(statement(sql));
        ends.ended(sql === "COMMIT");
      } catch (error) {
        // When SQLite has ended the transaction already this fails too, and nothing is left to undo.
        if (sql === "COMMIT") await tx.executeRaw(statement("ROLLBACK")).catch(() => {});
        ends.ended(false);
        throw error;
      }
    };
    const tx: Transaction = {
      provider: adapter.provider,
      adapterName: adapter.adapterName,
      // Prisma calls commit() and rollback() instead of sending COMMIT or ROLLBACK itself.
      options: { usePhantomQuery: true },
      queryRaw,
      executeRaw,
      commit: () => end("COMMIT"),
      rollback: () => end("ROLLBACK"),
    };
    return tx;
  };
}

/** A connection whose writes are answered once flushed (wal-flush.ts). */
interface Durable {
  writes: WriteCount;
  flushed: WalFlush;
  /** Whether the connection is inside a transaction (better-sqlite3's `inTransaction`). */
  inTransaction(): boolean;
}

/**
 * Queries wait while a transaction is open or waiting to begin; transactions begin one after another.
 * `last` is the end of the last transaction begun or waiting: each chains onto it as it asks to begin.
 * A transaction's end releases the others whether its COMMIT or ROLLBACK succeeded or not.
 */
function serialize(adapter: Adapter, durable?: Durable): Adapter {
  let last: Promise<void> = Promise.resolve();
  // After a flush failed, nothing more is answered or committed (wal-flush.ts).
  const failure = () => durable?.flushed.failed;
  // The query starts in the same step as the check that nothing is open (the driver runs it at once).
  const whenIdle = async <T>(run: () => Promise<T>): Promise<T> => {
    for (let current = last; ; current = last) {
      await current;
      const failed = failure();
      if (failed) throw failed;
      if (current === last) return run();
    }
  };
  const queryRaw = adapter.queryRaw.bind(adapter);
  const executeRaw = adapter.executeRaw.bind(adapter);
  const startTransaction = adapter.startTransaction.bind(adapter);
  // A statement outside a transaction commits by itself: one that may have written is answered once on disk.
  // A COMMIT or RELEASE sent as a plain statement (none is, today) reads as read-only: it is a write when
  // it ends a transaction.
  const committed = <T>(run: () => Promise<T>): Promise<T> => {
    if (!durable) return run();
    const before = durable.writes.count;
    const wasInTransaction = durable.inTransaction();
    // The driver has run the statement when `run` returns (better-sqlite3 is synchronous).
    const ran = run();
    const ended = wasInTransaction && !durable.inTransaction();
    if (durable.writes.count === before && !ended) return ran;
    return ran.then(async (result) => {
      await durable.flushed.flush();
      return result;
    });
  };
  adapter.queryRaw = (query) => whenIdle(() => committed(() => queryRaw(query)));
  adapter.executeRaw = (query) => whenIdle(() => committed(() => executeRaw(query)));
  adapter.startTransaction = async (isolationLevel) => {
    const previous = last;
    let end = () => {};
    const ended = new Promise<void>((resolve) => {
      end = resolve;
    });
    last = previous.then(() => ended);
    await previous;
    const failed = failure();
    if (failed) {
      end();
      throw failed;
    }
    let tx: Transaction;
    try {
      tx = await startTransaction(isolationLevel);
    } catch (error) {
      end();
      throw error;
    }
    const commit = tx.commit.bind(tx);
    const rollback = tx.rollback.bind(tx);
    const before = durable?.writes.count;
    // The connection is released before the flush: the next transaction commits while this one's flushes.
    const flushed = () => (durable && durable.writes.count !== before ? durable.flushed.flush() : undefined);
    // A transaction open when a flush failed commits nothing more to a WAL whose state is not known.
    const commitOrRefuse = () => {
      const failed = failure();
      return failed ? rollback().then(() => Promise.reject(failed)) : commit();
    };
    tx.commit = () => commitOrRefuse().finally(end).then(flushed);
    tx.rollback = () => rollback().finally(end);
    return tx;
  };
  return adapter;
}
