-- DropIndex
DROP INDEX "Entry_published_publishedAt_idx";

-- CreateTable
CREATE TABLE "AccountGeneration" (
    "accountId" TEXT NOT NULL,
    "content" BIGINT NOT NULL DEFAULT 0,
    "structure" BIGINT NOT NULL DEFAULT 0,
    "nextPublishAt" TIMESTAMP(3),

    CONSTRAINT "AccountGeneration_pkey" PRIMARY KEY ("accountId")
);

-- CreateIndex
CREATE INDEX "Entry_accountId_published_publishedAt_idx" ON "Entry"("accountId", "published", "publishedAt");

-- AddForeignKey
ALTER TABLE "AccountGeneration" ADD CONSTRAINT "AccountGeneration_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Every account has its row: made with the account, and here for those that exist.
INSERT INTO "AccountGeneration" ("accountId", "nextPublishAt")
SELECT a."id", (SELECT min(e."publishedAt") FROM "Entry" e WHERE e."accountId" = a."id" AND e."published"
  AND e."publishedAt" > (now() AT TIME ZONE 'UTC')) FROM "Account" a;

-- The notifications of every change are replaced by the generations.
DROP FUNCTION "cms_changed"() CASCADE;
DROP FUNCTION "cms_account_changed"() CASCADE;
DROP FUNCTION "cms_everything_changed"() CASCADE;

CREATE FUNCTION "cms_account_created"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN INSERT INTO "AccountGeneration" ("accountId") VALUES (NEW."id"); RETURN NULL; END
$$;

CREATE TRIGGER "Account_generation_row" AFTER INSERT ON "Account"
    FOR EACH ROW EXECUTE FUNCTION "cms_account_created"();

-- A write bumps its account's counter (TG_ARGV[0]: "content" or "structure") once per transaction, at
-- commit (deferred): the row's lock is the last a writer takes and is held only while it commits, so
-- writers of one account never deadlock over it. `cms.bumped` (local to the transaction) lists what the
-- transaction has bumped already: a bulk write of many rows bumps once.
CREATE FUNCTION "cms_bump"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE account TEXT; bumped TEXT; mark TEXT;
BEGIN
  IF TG_OP = 'DELETE' THEN account := OLD."accountId"; ELSIF TG_TABLE_NAME = 'Account' THEN account := NEW."id"; ELSE account := NEW."accountId"; END IF;
  mark := TG_ARGV[0] || ':' || account || ' ';
  bumped := coalesce(current_setting('cms.bumped', true), '');
  IF position(mark IN bumped) > 0 THEN RETURN NULL; END IF;
  IF TG_ARGV[0] = 'structure' THEN
    UPDATE "AccountGeneration" SET "structure" = "structure" + 1 WHERE "accountId" = account;
  ELSE
    UPDATE "AccountGeneration" SET "content" = "content" + 1 WHERE "accountId" = account;
  END IF;
  PERFORM set_config('cms.bumped', bumped || mark, true);
  RETURN NULL;
END
$$;

-- An entry published for later moves its account's next publish moment back to it, at the latest.
-- Compared with the entry's own write time (both set by the server), never with the database's clock.
CREATE FUNCTION "cms_scheduled"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN UPDATE "AccountGeneration" SET "nextPublishAt" = LEAST(coalesce("nextPublishAt", NEW."publishedAt"), NEW."publishedAt") WHERE "accountId" = NEW."accountId"; RETURN NULL; END
$$;

CREATE CONSTRAINT TRIGGER "Entry_scheduled" AFTER INSERT OR UPDATE ON "Entry" DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW WHEN (NEW."published" AND NEW."publishedAt" > NEW."updatedAt") EXECUTE FUNCTION "cms_scheduled"();

CREATE CONSTRAINT TRIGGER "Account_generation" AFTER UPDATE ON "Account" DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION "cms_bump"('structure');

CREATE CONSTRAINT TRIGGER "ApiToken_generation" AFTER INSERT OR UPDATE OR DELETE ON "ApiToken" DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION "cms_bump"('structure');

CREATE CONSTRAINT TRIGGER "Collection_generation" AFTER INSERT OR UPDATE OR DELETE ON "Collection" DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION "cms_bump"('structure');

CREATE CONSTRAINT TRIGGER "Blueprint_generation" AFTER INSERT OR UPDATE OR DELETE ON "Blueprint" DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION "cms_bump"('structure');

CREATE CONSTRAINT TRIGGER "Template_generation" AFTER INSERT OR UPDATE OR DELETE ON "Template" DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION "cms_bump"('structure');

CREATE CONSTRAINT TRIGGER "Navigation_generation" AFTER INSERT OR UPDATE OR DELETE ON "Navigation" DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION "cms_bump"('structure');

CREATE CONSTRAINT TRIGGER "NavigationItem_generation" AFTER INSERT OR UPDATE OR DELETE ON "NavigationItem" DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION "cms_bump"('structure');

CREATE CONSTRAINT TRIGGER "Form_generation" AFTER INSERT OR UPDATE OR DELETE ON "Form" DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION "cms_bump"('structure');

CREATE CONSTRAINT TRIGGER "Global_generation" AFTER INSERT OR UPDATE OR DELETE ON "Global" DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION "cms_bump"('structure');

CREATE CONSTRAINT TRIGGER "Webhook_generation" AFTER INSERT OR UPDATE OR DELETE ON "Webhook" DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION "cms_bump"('structure');

CREATE CONSTRAINT TRIGGER "Entry_generation" AFTER INSERT OR UPDATE OR DELETE ON "Entry" DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION "cms_bump"('content');

CREATE CONSTRAINT TRIGGER "EntryReference_generation" AFTER INSERT OR UPDATE OR DELETE ON "EntryReference" DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION "cms_bump"('content');

CREATE CONSTRAINT TRIGGER "Asset_generation" AFTER INSERT OR UPDATE OR DELETE ON "Asset" DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION "cms_bump"('content');

CREATE CONSTRAINT TRIGGER "Revision_generation" AFTER INSERT OR UPDATE OR DELETE ON "Revision" DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION "cms_bump"('content');

CREATE CONSTRAINT TRIGGER "TrashItem_generation" AFTER INSERT OR UPDATE OR DELETE ON "TrashItem" DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION "cms_bump"('content');

CREATE CONSTRAINT TRIGGER "WebhookDelivery_generation" AFTER INSERT OR UPDATE OR DELETE ON "WebhookDelivery" DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION "cms_bump"('content');

CREATE CONSTRAINT TRIGGER "ImportJob_generation" AFTER INSERT OR UPDATE OR DELETE ON "ImportJob" DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION "cms_bump"('content');
