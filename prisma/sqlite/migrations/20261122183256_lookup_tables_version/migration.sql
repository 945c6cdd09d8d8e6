-- CreateTable
CREATE TABLE "LookupTablesVersion" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "version" BIGINT NOT NULL DEFAULT 0
);

