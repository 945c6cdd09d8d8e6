// A fresh, migrated database of this run's kind (TEST_DATABASE) opened in the test's own process, for tests
// of the data layer on the real client; `drop` closes and removes it.
import { type Database, openDatabase } from "../../src/db/client.ts";
import { migrate } from "../../src/db/migrate.ts";
import { freshDatabase } from "./server.ts";

export async function openFreshDatabase(): Promise<{ database: Database; drop(): Promise<void> }> {
  const fresh = await freshDatabase();
  const database = await openDatabase({
    dataDir: String(fresh.env.CMS_DATA_DIR),
    databaseUrl: fresh.env.DATABASE_URL,
  });
  await migrate(database);
  return {
    database,
    drop: async () => {
      await database.close();
      await fresh.drop();
    },
  };
}
