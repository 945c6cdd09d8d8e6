// Opens the database: PostgreSQL when DATABASE_URL says so, else the embedded SQLite file under the
// data directory. Both clients come from the same models, so one type serves both.
import { dirname, join } from "node:path";
import type { Config } from "../config.ts";
import type { PrismaClient } from "../generated/sqlite/client.ts";
import { SetupError, systemCause, writableDirectory } from "../setup-errors.ts";
import { privateDatabaseFiles, privateDirectory } from "../storage/private-files.ts";
import { postgresProblem } from "./connect-errors.ts";
import { deepEntryPages } from "./entry-reads.ts";
import { recordingOption } from "./entry-revisions.ts";
import { probeDatabaseWith } from "./outage.ts";
import { type CountableFactory, countingAdapter, queryCountingEnabled } from "./query-count.ts";
import { withQueryHooks } from "./query-hooks.ts";
import { serializedSqlite } from "./sqlite-adapter.ts";
import { fieldName, nulPath, UnstorableTextError } from "./text-guard.ts";

export type Db = PrismaClient;
export type DbProvider = "sqlite" | "postgresql";

export interface Database {
  db: Db;
  provider: DbProvider;
  /** This process records entry revisions: its connections have the triggers (entry-revisions.ts). */
  recordsRevisions: boolean;
  /** Runs many statements at once (a migration file, migrate.ts) inside `tx`, an open transaction. */
  executeScript(tx: Pick<Db, "$executeRawUnsafe">, sql: string): Promise<void>;
  /**
   * SQLite: changes whenever anything may have been committed since (sqlite-adapter.ts); what a request
   * read of its identity and generations is kept while it stands (src/schema/generations.ts).
   */
  dataVersion?: () => Promise<string | undefined>;
  /** Disconnects. */
  close(): Promise<void>;
}

/**
 * Options of both generated clients. In its default error format Prisma makes an Error on every call, to
 * show the caller's line if the query fails: 2-3.5 % of an uncached read's CPU. Its messages reach no one
 * (unexpected errors are masked, and logged with their own stack).
 */
const clientOptions = { errorFormat: "minimal" } as const;

/**
 * A database that cannot be opened (PostgreSQL out of reach, no such database, an SQLite file that
 * cannot be written) throws a SetupError naming the setting.
 * `keepStatistics`: the server's own connection keeps SQLite's planner statistics fresh (sqlite-adapter.ts);
 * short-lived users of the file (the CLI, the bench's seeding) leave that to it.
 * `sqliteSynchronous` (unset: "full") says when an SQLite commit waits for the disk.
 * `recordRevisions`: writes of entries record their revisions (entry-revisions.ts; off for the seeding).
 */
export async function openDatabase(
  config: Pick<Config, "dataDir" | "databaseUrl"> & Partial<Pick<Config, "sqliteSynchronous">>,
  { keepStatistics = false, recordRevisions = false } = {},
): Promise<Database> {
  if (isPostgresUrl(config.databaseUrl)) {
    const [{ PrismaPg }, { PrismaClient }] = await Promise.all([
      import("@prisma/adapter-pg"),
      import("../generated/postgresql/client.ts"),
    ]);
    const factory = new PrismaPg({
      connectionString: config.databaseUrl,
      max: 10,
      ...(recordRevisions && { options: recordingOption }),
    });
    const adapter = instrumented(factory);
    const db = withHooks(new PrismaClient({ adapter, ...clientOptions }) as unknown as Db);
    await answers(db, config.databaseUrl);
    probeDatabaseWith(() => ping(db));
    // The two generated clients differ only in provider-specific options we do not use.
    return {
      db,
      provider: "postgresql",
      recordsRevisions: recordRevisions,
      // Without parameters pg sends it by the simple query protocol, which runs many statements.
      executeScript: async (tx, sql) => {
        await tx.$executeRawUnsafe(sql);
      },
      close: () => db.$disconnect(),
    };
  }
  const file = sqliteFile(config);
  const setting = config.databaseUrl ? "DATABASE_URL" : "CMS_DATA_DIR";
  writableDirectory(dirname(file), setting);
  // The data directory is private (storage/private-files.ts); a file named by DATABASE_URL elsewhere
  // leaves its directory to the operator, but its own files are private too.
  if (!config.databaseUrl) privateDirectory(config.dataDir);
  const { PrismaClient } = await import("../generated/sqlite/client.ts");
  const synchronous = config.sqliteSynchronous ?? "full";
  const sqlite = serializedSqlite(file, { keepStatistics, synchronous });
  const adapter = instrumented(sqlite.factory);
  const db = withHooks(new PrismaClient({ adapter, ...clientOptions }));
  try {
    // Opened now, so that a file that cannot be opened stops start-up in one line.
    await db.$queryRaw`SELECT 1`;
    // SQLite gives the WAL and shared-memory files it makes later the database file's own mode.
    privateDatabaseFiles(file);
  } catch (error) {
    await db.$disconnect().catch(() => {});
    throw new SetupError(`${setting}: cannot open the SQLite database ${file} (${systemCause(error)})`);
  }
  probeDatabaseWith(() => ping(db));
  return {
    db,
    provider: "sqlite",
    recordsRevisions: recordRevisions,
    // One connection: the script runs inside the transaction open on it (sqlite-adapter.ts).
    executeScript: (_tx, sql) => sqlite.executeScript(sql),
    dataVersion: sqlite.dataVersion,
    close: () => db.$disconnect(),
  };
}

/** The embedded database's file: DATABASE_URL's file:PATH, else cms.db in the data directory. */
export function sqliteFile(config: Pick<Config, "dataDir" | "databaseUrl">): string {
  return config.databaseUrl?.replace(/^file:/, "") ?? join(config.dataDir, "cms.db");
}

/** Whether DATABASE_URL names PostgreSQL. */
export const isPostgresUrl = (url: string | undefined): url is string =>
  url !== undefined && /^postgres(ql)?:\/\//.test(url);

/** The first connection, so that a server out of reach or a missing database stops start-up in one line. */
async function answers(db: Db, url: string): Promise<void> {
  try {
    await db.$queryRaw`SELECT 1`;
  } catch (error) {
    await db.$disconnect().catch(() => {});
    throw new SetupError(`DATABASE_URL: ${postgresProblem(error, url)}`);
  }
}

/** CMS_COUNT_QUERIES=1: each request's SQL statements are counted (query-count.ts). */
function instrumented<Factory extends CountableFactory>(factory: Factory): Factory {
  return queryCountingEnabled() ? countingAdapter(factory) : factory;
}

/** Every operation's text guard (text-guard.ts), and deep pages of entries read by IDs first (entry-reads.ts). */
function withHooks(client: Db): Db {
  return withQueryHooks(client, {
    check(args) {
      const path = nulPath(args);
      return path ? new UnstorableTextError(fieldName(path)) : undefined;
    },
    replace: deepEntryPages,
  });
}

/** Readiness: the database answers a trivial query. */
export async function ping(db: Db): Promise<boolean> {
  try {
    await db.$queryRaw`SELECT 1`;
    return true;
  } catch {
    return false;
  }
}
