-- AlterTable (SQLite adds a NOT NULL column with a constant default in place; no table copy needed)
ALTER TABLE "ApiToken" ADD COLUMN "prefix" TEXT NOT NULL DEFAULT '';
