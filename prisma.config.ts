// Prisma CLI configuration. The CLI runs on the JavaScript engine with a driver adapter, so it never
// downloads an engine binary; DATABASE_URL gets a placeholder because the datasource reads it.
import { defineConfig } from "prisma/config";

process.env.DATABASE_URL ??= "file::memory:";
const postgres = /^postgres(ql)?:/.test(process.env.DATABASE_URL);

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: postgres ? "prisma/postgresql/schema.prisma" : "prisma/sqlite/schema.prisma",
  async adapter() {
    const url = process.env.DATABASE_URL ?? "";
    if (postgres) {
      const { PrismaPg } = await import("@prisma/adapter-pg");
      return new PrismaPg({ connectionString: url });
    }
    const { PrismaBetterSQLite3 } = await import("@prisma/adapter-better-sqlite3");
    return new PrismaBetterSQLite3({ url: url.replace(/^file:/, "") });
  },
});
