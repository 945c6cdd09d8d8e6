-- DropIndex
DROP INDEX "Entry_published_publishedAt_idx";

-- CreateTable
CREATE TABLE "AccountGeneration" (
    "accountId" TEXT NOT NULL PRIMARY KEY,
    "content" BIGINT NOT NULL DEFAULT 0,
    "structure" BIGINT NOT NULL DEFAULT 0,
    "nextPublishAt" DATETIME,
    CONSTRAINT "AccountGeneration_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "Entry_accountId_published_publishedAt_idx" ON "Entry"("accountId", "published", "publishedAt");


-- Every account has its row: made with the account, and here for those that exist.
INSERT INTO "AccountGeneration" ("accountId", "nextPublishAt")
SELECT a."id", (SELECT min(e."publishedAt") FROM "Entry" e WHERE e."accountId" = a."id" AND e."published"
  AND e."publishedAt" > e."updatedAt") FROM "Account" a;

CREATE TRIGGER "Account_generation_row" AFTER INSERT ON "Account"
BEGIN INSERT INTO "AccountGeneration" ("accountId") VALUES (NEW."id"); END;

CREATE TRIGGER "Account_generation" AFTER UPDATE ON "Account"
BEGIN UPDATE "AccountGeneration" SET "structure" = "structure" + 1 WHERE "accountId" = NEW."id"; END;

-- An entry published for later moves its account's next publish moment back to it, at the latest.
-- Compared with the entry's own write time (both set by the server), never with the database's clock.
CREATE TRIGGER "Entry_scheduled_insert" AFTER INSERT ON "Entry" WHEN NEW."published" AND NEW."publishedAt" > NEW."updatedAt"
BEGIN UPDATE "AccountGeneration" SET "nextPublishAt" = min(coalesce("nextPublishAt", NEW."publishedAt"), NEW."publishedAt") WHERE "accountId" = NEW."accountId"; END;

CREATE TRIGGER "Entry_scheduled_update" AFTER UPDATE ON "Entry" WHEN NEW."published" AND NEW."publishedAt" > NEW."updatedAt"
BEGIN UPDATE "AccountGeneration" SET "nextPublishAt" = min(coalesce("nextPublishAt", NEW."publishedAt"), NEW."publishedAt") WHERE "accountId" = NEW."accountId"; END;

-- A write bumps its account's counter in its own statement (SQLite writes one transaction at a time).
CREATE TRIGGER "ApiToken_generation_insert" AFTER INSERT ON "ApiToken"
BEGIN UPDATE "AccountGeneration" SET "structure" = "structure" + 1 WHERE "accountId" = NEW."accountId"; END;
CREATE TRIGGER "ApiToken_generation_update" AFTER UPDATE ON "ApiToken"
BEGIN UPDATE "AccountGeneration" SET "structure" = "structure" + 1 WHERE "accountId" = NEW."accountId"; END;
CREATE TRIGGER "ApiToken_generation_delete" AFTER DELETE ON "ApiToken"
BEGIN UPDATE "AccountGeneration" SET "structure" = "structure" + 1 WHERE "accountId" = OLD."accountId"; END;
CREATE TRIGGER "Collection_generation_insert" AFTER INSERT ON "Collection"
BEGIN UPDATE "AccountGeneration" SET "structure" = "structure" + 1 WHERE "accountId" = NEW."accountId"; END;
CREATE TRIGGER "Collection_generation_update" AFTER UPDATE ON "Collection"
BEGIN UPDATE "AccountGeneration" SET "structure" = "structure" + 1 WHERE "accountId" = NEW."accountId"; END;
CREATE TRIGGER "Collection_generation_delete" AFTER DELETE ON "Collection"
BEGIN UPDATE "AccountGeneration" SET "structure" = "structure" + 1 WHERE "accountId" = OLD."accountId"; END;
CREATE TRIGGER "Blueprint_generation_insert" AFTER INSERT ON "Blueprint"
BEGIN UPDATE "AccountGeneration" SET "structure" = "structure" + 1 WHERE "accountId" = NEW."accountId"; END;
CREATE TRIGGER "Blueprint_generation_update" AFTER UPDATE ON "Blueprint"
BEGIN UPDATE "AccountGeneration" SET "structure" = "structure" + 1 WHERE "accountId" = NEW."accountId"; END;
CREATE TRIGGER "Blueprint_generation_delete" AFTER DELETE ON "Blueprint"
BEGIN UPDATE "AccountGeneration" SET "structure" = "structure" + 1 WHERE "accountId" = OLD."accountId"; END;
CREATE TRIGGER "Template_generation_insert" AFTER INSERT ON "Template"
BEGIN UPDATE "AccountGeneration" SET "structure" = "structure" + 1 WHERE "accountId" = NEW."accountId"; END;
CREATE TRIGGER "Template_generation_update" AFTER UPDATE ON "Template"
BEGIN UPDATE "AccountGeneration" SET "structure" = "structure" + 1 WHERE "accountId" = NEW."accountId"; END;
CREATE TRIGGER "Template_generation_delete" AFTER DELETE ON "Template"
BEGIN UPDATE "AccountGeneration" SET "structure" = "structure" + 1 WHERE "accountId" = OLD."accountId"; END;
CREATE TRIGGER "Navigation_generation_insert" AFTER INSERT ON "Navigation"
BEGIN UPDATE "AccountGeneration" SET "structure" = "structure" + 1 WHERE "accountId" = NEW."accountId"; END;
CREATE TRIGGER "Navigation_generation_update" AFTER UPDATE ON "Navigation"
BEGIN UPDATE "AccountGeneration" SET "structure" = "structure" + 1 WHERE "accountId" = NEW."accountId"; END;
CREATE TRIGGER "Navigation_generation_delete" AFTER DELETE ON "Navigation"
BEGIN UPDATE "AccountGeneration" SET "structure" = "structure" + 1 WHERE "accountId" = OLD."accountId"; END;
CREATE TRIGGER "NavigationItem_generation_insert" AFTER INSERT ON "NavigationItem"
BEGIN UPDATE "AccountGeneration" SET "structure" = "structure" + 1 WHERE "accountId" = NEW."accountId"; END;
CREATE TRIGGER "NavigationItem_generation_update" AFTER UPDATE ON "NavigationItem"
BEGIN UPDATE "AccountGeneration" SET "structure" = "structure" + 1 WHERE "accountId" = NEW."accountId"; END;
CREATE TRIGGER "NavigationItem_generation_delete" AFTER DELETE ON "NavigationItem"
BEGIN UPDATE "AccountGeneration" SET "structure" = "structure" + 1 WHERE "accountId" = OLD."accountId"; END;
CREATE TRIGGER "Form_generation_insert" AFTER INSERT ON "Form"
BEGIN UPDATE "AccountGeneration" SET "structure" = "structure" + 1 WHERE "accountId" = NEW."accountId"; END;
CREATE TRIGGER "Form_generation_update" AFTER UPDATE ON "Form"
BEGIN UPDATE "AccountGeneration" SET "structure" = "structure" + 1 WHERE "accountId" = NEW."accountId"; END;
CREATE TRIGGER "Form_generation_delete" AFTER DELETE ON "Form"
BEGIN UPDATE "AccountGeneration" SET "structure" = "structure" + 1 WHERE "accountId" = OLD."accountId"; END;
CREATE TRIGGER "Global_generation_insert" AFTER INSERT ON "Global"
BEGIN UPDATE "AccountGeneration" SET "structure" = "structure" + 1 WHERE "accountId" = NEW."accountId"; END;
CREATE TRIGGER "Global_generation_update" AFTER UPDATE ON "Global"
BEGIN UPDATE "AccountGeneration" SET "structure" = "structure" + 1 WHERE "accountId" = NEW."accountId"; END;
CREATE TRIGGER "Global_generation_delete" AFTER DELETE ON "Global"
BEGIN UPDATE "AccountGeneration" SET "structure" = "structure" + 1 WHERE "accountId" = OLD."accountId"; END;
CREATE TRIGGER "Webhook_generation_insert" AFTER INSERT ON "Webhook"
BEGIN UPDATE "AccountGeneration" SET "structure" = "structure" + 1 WHERE "accountId" = NEW."accountId"; END;
CREATE TRIGGER "Webhook_generation_update" AFTER UPDATE ON "Webhook"
BEGIN UPDATE "AccountGeneration" SET "structure" = "structure" + 1 WHERE "accountId" = NEW."accountId"; END;
CREATE TRIGGER "Webhook_generation_delete" AFTER DELETE ON "Webhook"
BEGIN UPDATE "AccountGeneration" SET "structure" = "structure" + 1 WHERE "accountId" = OLD."accountId"; END;
CREATE TRIGGER "Entry_generation_insert" AFTER INSERT ON "Entry"
BEGIN UPDATE "AccountGeneration" SET "content" = "content" + 1 WHERE "accountId" = NEW."accountId"; END;
CREATE TRIGGER "Entry_generation_update" AFTER UPDATE ON "Entry"
BEGIN UPDATE "AccountGeneration" SET "content" = "content" + 1 WHERE "accountId" = NEW."accountId"; END;
CREATE TRIGGER "Entry_generation_delete" AFTER DELETE ON "Entry"
BEGIN UPDATE "AccountGeneration" SET "content" = "content" + 1 WHERE "accountId" = OLD."accountId"; END;
CREATE TRIGGER "EntryReference_generation_insert" AFTER INSERT ON "EntryReference"
BEGIN UPDATE "AccountGeneration" SET "content" = "content" + 1 WHERE "accountId" = NEW."accountId"; END;
CREATE TRIGGER "EntryReference_generation_update" AFTER UPDATE ON "EntryReference"
BEGIN UPDATE "AccountGeneration" SET "content" = "content" + 1 WHERE "accountId" = NEW."accountId"; END;
CREATE TRIGGER "EntryReference_generation_delete" AFTER DELETE ON "EntryReference"
BEGIN UPDATE "AccountGeneration" SET "content" = "content" + 1 WHERE "accountId" = OLD."accountId"; END;
CREATE TRIGGER "Asset_generation_insert" AFTER INSERT ON "Asset"
BEGIN UPDATE "AccountGeneration" SET "content" = "content" + 1 WHERE "accountId" = NEW."accountId"; END;
CREATE TRIGGER "Asset_generation_update" AFTER UPDATE ON "Asset"
BEGIN UPDATE "AccountGeneration" SET "content" = "content" + 1 WHERE "accountId" = NEW."accountId"; END;
CREATE TRIGGER "Asset_generation_delete" AFTER DELETE ON "Asset"
BEGIN UPDATE "AccountGeneration" SET "content" = "content" + 1 WHERE "accountId" = OLD."accountId"; END;
CREATE TRIGGER "Revision_generation_insert" AFTER INSERT ON "Revision"
BEGIN UPDATE "AccountGeneration" SET "content" = "content" + 1 WHERE "accountId" = NEW."accountId"; END;
CREATE TRIGGER "Revision_generation_update" AFTER UPDATE ON "Revision"
BEGIN UPDATE "AccountGeneration" SET "content" = "content" + 1 WHERE "accountId" = NEW."accountId"; END;
CREATE TRIGGER "Revision_generation_delete" AFTER DELETE ON "Revision"
BEGIN UPDATE "AccountGeneration" SET "content" = "content" + 1 WHERE "accountId" = OLD."accountId"; END;
CREATE TRIGGER "TrashItem_generation_insert" AFTER INSERT ON "TrashItem"
BEGIN UPDATE "AccountGeneration" SET "content" = "content" + 1 WHERE "accountId" = NEW."accountId"; END;
CREATE TRIGGER "TrashItem_generation_update" AFTER UPDATE ON "TrashItem"
BEGIN UPDATE "AccountGeneration" SET "content" = "content" + 1 WHERE "accountId" = NEW."accountId"; END;
CREATE TRIGGER "TrashItem_generation_delete" AFTER DELETE ON "TrashItem"
BEGIN UPDATE "AccountGeneration" SET "content" = "content" + 1 WHERE "accountId" = OLD."accountId"; END;
CREATE TRIGGER "WebhookDelivery_generation_insert" AFTER INSERT ON "WebhookDelivery"
BEGIN UPDATE "AccountGeneration" SET "content" = "content" + 1 WHERE "accountId" = NEW."accountId"; END;
CREATE TRIGGER "WebhookDelivery_generation_update" AFTER UPDATE ON "WebhookDelivery"
BEGIN UPDATE "AccountGeneration" SET "content" = "content" + 1 WHERE "accountId" = NEW."accountId"; END;
CREATE TRIGGER "WebhookDelivery_generation_delete" AFTER DELETE ON "WebhookDelivery"
BEGIN UPDATE "AccountGeneration" SET "content" = "content" + 1 WHERE "accountId" = OLD."accountId"; END;
CREATE TRIGGER "ImportJob_generation_insert" AFTER INSERT ON "ImportJob"
BEGIN UPDATE "AccountGeneration" SET "content" = "content" + 1 WHERE "accountId" = NEW."accountId"; END;
CREATE TRIGGER "ImportJob_generation_update" AFTER UPDATE ON "ImportJob"
BEGIN UPDATE "AccountGeneration" SET "content" = "content" + 1 WHERE "accountId" = NEW."accountId"; END;
CREATE TRIGGER "ImportJob_generation_delete" AFTER DELETE ON "ImportJob"
BEGIN UPDATE "AccountGeneration" SET "content" = "content" + 1 WHERE "accountId" = OLD."accountId"; END;
