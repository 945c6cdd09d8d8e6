// `npm start`: apply pending migrations, then serve HTTP until SIGTERM/SIGINT, letting in-flight
// requests finish.
import { createServer } from "node:http";
import { join } from "node:path";
import { createApp } from "./app.ts";
import { loadConfig } from "./config.ts";
import { openDatabase } from "./db/client.ts";
import { migrate } from "./db/migrate.ts";
import { createLocalStorage } from "./storage/local.ts";

const log = (fields: Record<string, unknown>) =>
  console.log(JSON.stringify({ time: new Date().toISOString(), ...fields }));

const config = loadConfig();
const database = await openDatabase(config);
const applied = await migrate(database);
if (applied.length > 0) log({ level: "info", msg: "migrations applied", migrations: applied });

const storage = await createLocalStorage(join(config.dataDir, "assets"));

const server = createServer(createApp(database, storage, config));
server.listen(config.port, config.host, () => {
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

function shutdown(signal: string) {
  log({ level: "info", msg: "shutting down", signal });
  server.close(async () => {
    await database.db.$disconnect();
    process.exit(0);
  });
  server.closeIdleConnections();
  setTimeout(() => process.exit(1), 10_000).unref();
}
process.on("SIGTERM", () => shutdown("SIGTERM"));
process.on("SIGINT", () => shutdown("SIGINT"));
