-- CreateTable
CREATE TABLE "LookupTablesVersion" (
    "id" TEXT NOT NULL,
    "version" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "LookupTablesVersion_pkey" PRIMARY KEY ("id")
);


-- The lookup tables' version is the sum of a few rows. Every statement that writes accounts, tokens,
-- collections or blueprints adds one to a row in its own transaction, so a reader sees the sum change when
-- it sees the write. A writer takes whichever row no other transaction holds (SKIP LOCKED), or adds a row
-- when all are held: it never waits, so it can neither block another tenant's writer nor deadlock with one.
-- (src/db/migrate.ts splits statements at a `;` that ends a line: the function body keeps its own inside.)
INSERT INTO "LookupTablesVersion" ("id", "version") SELECT 'stripe-' || n, 0 FROM generate_series(1, 8) AS n;

CREATE FUNCTION "bump_lookup_tables_version"() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN UPDATE "LookupTablesVersion" SET "version" = "version" + 1 WHERE "id" = (SELECT "id" FROM "LookupTablesVersion" LIMIT 1 FOR UPDATE SKIP LOCKED); IF NOT FOUND THEN INSERT INTO "LookupTablesVersion" ("id", "version") VALUES (gen_random_uuid()::text, 1); END IF; RETURN NULL; END
$$;

CREATE TRIGGER "Account_lookup_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "Account"
    FOR EACH STATEMENT EXECUTE FUNCTION "bump_lookup_tables_version"();

CREATE TRIGGER "ApiToken_lookup_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "ApiToken"
    FOR EACH STATEMENT EXECUTE FUNCTION "bump_lookup_tables_version"();

CREATE TRIGGER "Collection_lookup_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "Collection"
    FOR EACH STATEMENT EXECUTE FUNCTION "bump_lookup_tables_version"();

CREATE TRIGGER "Blueprint_lookup_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "Blueprint"
    FOR EACH STATEMENT EXECUTE FUNCTION "bump_lookup_tables_version"();
