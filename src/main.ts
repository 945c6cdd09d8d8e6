// `npm start`: apply pending migrations, then serve HTTP until SIGTERM/SIGINT, letting in-flight
// requests finish.
import { createServer } from "node:http";
import { createApp } from "./app.ts";
import { loadConfig } from "./config.ts";
import { openDatabase } from "./db/client.ts";
import { migrate } from "./db/migrate.ts";
import { answerClientErrors } from "./http/client-errors.ts";
import { listenProblem } from "./listen-errors.ts";
import { log } from "./log.ts";
import { createOutbox } from "./mail/index.ts";
import { createRateLimiter } from "./rate-limit/index.ts";
import { withRequestLog } from "./request-log.ts";
import { startOrphanSweep } from "./schema/assets/orphan-sweep.ts";
import { previewSigningKey } from "./schema/previews/signing-key.ts";
import { readBudgets } from "./schema/read-cache.ts";
import { recordsRevisions } from "./schema/revisions/record.ts";
import { startTrashSweep } from "./schema/trash/sweep.ts";
import { exitOnSetupError, readSettings, writableDirectory } from "./setup-errors.ts";
import { openStorage } from "./storage/open.ts";
import { createDispatcher } from "./webhooks/dispatcher.ts";

const { config, database, storage } = await start().catch(exitOnSetupError);

/** Settings, the data directory, the migrated database and file storage: a setup mistake stops here in one line. */
async function start() {
  const config = readSettings(() => loadConfig());
  writableDirectory(config.dataDir, "CMS_DATA_DIR");
  const database = await openDatabase(config, {
    keepStatistics: true,
    recordRevisions: recordsRevisions(config),
  });
  const applied = await migrate(database);
  if (applied.length > 0) log({ level: "info", msg: "migrations applied", migrations: applied });
  // The preview links' signing key is made and stored on first start, before any request; if
  // that fails, the server starts anyway and the first preview link makes it (previewSigningKey is lazy).
  await previewSigningKey(database.db).catch((error) =>
    log({ level: "warn", msg: "preview signing key not made at start", error: String(error) }),
  );
  const storage = await openStorage(config, database.db);
  return { config, database, storage };
}

const limiter = createRateLimiter(
  {
    perMinute: config.rateLimitPerMinute,
    anonymousPerMinute: config.anonymousRateLimitPerMinute,
    redisUrl: config.redisUrl,
    redisPrefix: config.redisPrefix,
  },
  log,
);
// Form notifications: written with each submission, sent through SMTP when SMTP_URL is set (src/mail/).
const outbox = createOutbox(database, config.mail, log);
// Webhook deliveries, from the outbox table the writes fill (src/webhooks/).
const webhooks = createDispatcher(
  database,
  { ...config.webhooks, allowPrivate: config.outboundAllowPrivate },
  log,
);
const app = createApp(database, storage, config, limiter, outbox, webhooks);
outbox.start();
// Trash items older than TRASH_KEEP_DAYS are purged now and then hourly, outside any request.
startTrashSweep(database.db, storage, config.history.trashKeepDays, log);
// Asset files without a row (a crash between storing an upload and its row), an hour old, likewise.
startOrphanSweep(database.db, storage, log);
let shuttingDown = false;
const server = createServer(
  {
    // Slowloris: headers must all arrive within headersTimeoutMs, checked every second (Node's default
    // is every 30 s). A body still trickling in when the app's own timeout answers 503 has its
    // connection closed once the whole request has taken longer than both timeouts together.
    headersTimeout: config.headersTimeoutMs,
    requestTimeout: config.requestTimeoutMs + config.headersTimeoutMs,
    connectionsCheckingInterval: 1_000,
  },
  withRequestLog((request, response) => {
    // Requests still arriving on kept-alive connections during shutdown are answered, then the
    // connection closes.
    if (shuttingDown) response.setHeader("connection", "close");
    // A request that was in flight when shutdown began leaves its kept-alive connection idle: close it.
    response.once("finish", () => {
      if (shuttingDown) setImmediate(() => server.closeIdleConnections());
    });
    app(request, response);
  }),
);
answerClientErrors(server);
const refused = (error: Error) => exitOnSetupError(listenProblem(error, config));
server.once("error", refused);
server.listen(config.port, config.host, () => {
  server.off("error", refused);
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  log({
    level: "info",
    msg: "listening",
    url: `http://${config.host}:${port}`,
    port,
    database: database.provider,
  });
});

/** Stops accepting connections, lets in-flight requests finish (for up to 10 s), then exits 0. */
function shutdown(signal: string) {
  if (shuttingDown) return;
  shuttingDown = true;
  log({ level: "info", msg: "shutting down", signal });
  server.close(async () => {
    // Notifications being sent get a few seconds; the rest wait in the database for the next start.
    await Promise.all([outbox.stop(5_000), webhooks.stop()]);
    await Promise.all([database.close(), limiter.close()]);
    process.exit(0);
  });
  server.closeIdleConnections();
  setTimeout(() => process.exit(1), 10_000).unref();
}
process.on("SIGTERM", () => shutdown("SIGTERM"));
process.on("SIGINT", () => shutdown("SIGINT"));
