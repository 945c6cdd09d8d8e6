-- CreateTable
CREATE TABLE "LookupTablesVersion" (
    "id" TEXT NOT NULL,
    "version" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "LookupTablesVersion_pkey" PRIMARY KEY ("id")
);


-- One row, bumped by every statement that writes a lookup table, in that statement's transaction: a
-- reader sees the new version when it sees the change. One row for the four tables, so a cascade from
-- Account or Collection is counted by its own statement. Bumped before the statement, so the version row
-- is locked before the rows the statement writes.
-- (src/db/migrate.ts splits statements at a `;` that ends a line: the function body keeps its own inside.)
INSERT INTO "LookupTablesVersion" ("id", "version") VALUES ('lookup', 0);

CREATE FUNCTION "bump_lookup_tables_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN UPDATE "LookupTablesVersion" SET "version" = "version" + 1 WHERE "id" = 'lookup'; RETURN NULL; END
$$;

CREATE TRIGGER "Account_lookup_version" BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON "Account"
    FOR EACH STATEMENT EXECUTE FUNCTION "bump_lookup_tables_version"();

CREATE TRIGGER "ApiToken_lookup_version" BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON "ApiToken"
    FOR EACH STATEMENT EXECUTE FUNCTION "bump_lookup_tables_version"();

CREATE TRIGGER "Collection_lookup_version" BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON "Collection"
    FOR EACH STATEMENT EXECUTE FUNCTION "bump_lookup_tables_version"();

CREATE TRIGGER "Blueprint_lookup_version" BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON "Blueprint"
    FOR EACH STATEMENT EXECUTE FUNCTION "bump_lookup_tables_version"();
