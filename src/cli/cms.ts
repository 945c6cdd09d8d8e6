// The operator CLI (decisions.md): accounts, tokens and themes, against the same database as the server
// (commands.ts lists them). The result goes to stdout (JSON with --json); which database was used, and
// any error, go to stderr in one line each, and an error exits 1. These lines are the command's own
// output, for the operator; what the server parts log while a command runs (src/log.ts) goes to stderr
// too, as JSON lines, so that stdout stays the answer (or, under `cms mcp`, the protocol).
import { loadConfig } from "../config.ts";
import { openDatabase } from "../db/client.ts";
import { migrate } from "../db/migrate.ts";
import { logToStderr } from "../log.ts";
import { ApiError } from "../schema/errors.ts";
import { recordsRevisions } from "../schema/revisions/record.ts";
import { oneLine, readSettings, SetupError } from "../setup-errors.ts";
import { parseCommandLine, UsageError } from "./args.ts";
import { commands, mcpOptions, restoreOptions, usage } from "./commands.ts";
import { databaseName } from "./database-name.ts";
import { counted } from "./plural.ts";

async function run(): Promise<void> {
  logToStderr();
  const options = Object.fromEntries(Object.entries(commands).map(([name, { options }]) => [name, options]));
  const { command, values } = parseCommandLine(process.argv.slice(2), {
    ...options,
    mcp: mcpOptions,
    restore: restoreOptions,
  });
  if (command === "mcp") return serveMcp(values);
  if (command === "restore") return restore(values);
  const chosen = commands[command];
  if (!chosen) {
    console.log(usage);
    return;
  }
  const config = readSettings(() => loadConfig());
  const database = await openDatabase(config, { recordRevisions: recordsRevisions(config) });
  try {
    if (!chosen.migrates) await migrate(database);
    // Flags given arrive as "true" (`--dry-run`), like the options' own strings.
    const strings = Object.fromEntries(
      Object.entries(values).flatMap(([name, value]) => (value === undefined ? [] : [[name, String(value)]])),
    );
    const outcome = await chosen.run(database, strings as Record<string, string>, config).catch((error) => {
      // A missing account is most often looked for in the wrong database: say which one was used.
      if (error instanceof ApiError && error.status === 404 && /\baccount\b/.test(error.message))
        throw new UsageError(`${error.message} in ${databaseName(config)}`);
      throw error;
    });
    console.log(values.json ? JSON.stringify(outcome.json) : outcome.text);
    console.error(`cms: ${outcome.wrote ? "wrote to" : "read from"} ${databaseName(config)}`);
  } finally {
    await database.db.$disconnect();
  }
}

/** Until stdin closes; stdout carries the protocol only. */
async function serveMcp(values: Record<string, unknown>): Promise<void> {
  const { token, account } = values as { token?: string; account?: string };
  if ((token === undefined) === (account === undefined))
    throw new UsageError("give one of --token or --account to 'mcp'");
  const config = readSettings(() => loadConfig());
  const database = await openDatabase(config, { recordRevisions: recordsRevisions(config) });
  try {
    await migrate(database);
    // Loaded here only: the tool interface brings in the whole GraphQL schema.
    const { serveStdio } = await import("../mcp/stdio.ts");
    await serveStdio(database, config, token ? { token } : { account: account ?? "" }, () =>
      console.error(`cms: serving MCP on stdin/stdout, using ${databaseName(config)}`),
    );
  } finally {
    await database.close();
  }
}

/** Into an empty instance: the database is not opened (SQLite would create its file) before the check. */
async function restore(values: Record<string, unknown>): Promise<void> {
  const config = readSettings(() => loadConfig());
  const { restoreFromFile } = await import("./restore.ts");
  const summary = await restoreFromFile(config, String(values.file));
  console.log(
    values.json
      ? JSON.stringify(summary)
      : `restored the ${summary.database} database and ${counted(summary.assets, "asset file")} from ${summary.file}`,
  );
  console.error(`cms: wrote to ${databaseName(config)}`);
}

try {
  await run();
} catch (error) {
  const message =
    error instanceof ApiError
      ? error.details.map((detail) => `${detail.path} ${detail.message}`).join("; ") || error.message
      : error instanceof UsageError || error instanceof SetupError
        ? error.message
        : `unexpected error: ${oneLine(error)}`;
  console.error(`cms: ${message}`);
  process.exitCode = 1;
}
