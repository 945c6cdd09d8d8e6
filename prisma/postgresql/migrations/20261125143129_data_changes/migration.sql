-- DropTable
DROP TABLE "LookupTablesVersion";
-- CASCADE: the triggers on accounts, tokens, collections and blueprints that called it.
DROP FUNCTION "bump_lookup_tables_version"() CASCADE;

-- Every committed change is told to every server process listening on the channel `cms_changes`
-- (src/db/postgres-changes.ts), so that what each keeps of an account's reads ends with a write of that
-- account only. The payload: `<account ID> <table>` for inserted or updated rows (only that table of the
-- account changed), `<account ID>` for deleted ones (they may cascade: the whole account), empty for a
-- change of no account (server settings). NOTIFY is sent at commit, never for a rolled-back write, and
-- once per distinct payload in a transaction.
CREATE FUNCTION "cms_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN IF TG_OP = 'DELETE' THEN PERFORM pg_notify('cms_changes', OLD."accountId"); ELSE PERFORM pg_notify('cms_changes', NEW."accountId" || ' ' || TG_TABLE_NAME); END IF; RETURN NULL; END
$$;

CREATE FUNCTION "cms_account_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN IF TG_OP = 'DELETE' THEN PERFORM pg_notify('cms_changes', OLD."id"); ELSE PERFORM pg_notify('cms_changes', NEW."id" || ' ' || TG_TABLE_NAME); END IF; RETURN NULL; END
$$;

CREATE FUNCTION "cms_everything_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN PERFORM pg_notify('cms_changes', ''); RETURN NULL; END
$$;

CREATE TRIGGER "Account_changed" AFTER INSERT OR UPDATE OR DELETE ON "Account"
    FOR EACH ROW EXECUTE FUNCTION "cms_account_changed"();

CREATE TRIGGER "ServerSetting_changed" AFTER INSERT OR UPDATE OR DELETE ON "ServerSetting"
    FOR EACH ROW EXECUTE FUNCTION "cms_everything_changed"();

CREATE TRIGGER "ApiToken_changed" AFTER INSERT OR UPDATE OR DELETE ON "ApiToken"
    FOR EACH ROW EXECUTE FUNCTION "cms_changed"();

CREATE TRIGGER "Collection_changed" AFTER INSERT OR UPDATE OR DELETE ON "Collection"
    FOR EACH ROW EXECUTE FUNCTION "cms_changed"();

CREATE TRIGGER "Blueprint_changed" AFTER INSERT OR UPDATE OR DELETE ON "Blueprint"
    FOR EACH ROW EXECUTE FUNCTION "cms_changed"();

CREATE TRIGGER "Entry_changed" AFTER INSERT OR UPDATE OR DELETE ON "Entry"
    FOR EACH ROW EXECUTE FUNCTION "cms_changed"();

CREATE TRIGGER "EntryReference_changed" AFTER INSERT OR UPDATE OR DELETE ON "EntryReference"
    FOR EACH ROW EXECUTE FUNCTION "cms_changed"();

CREATE TRIGGER "Template_changed" AFTER INSERT OR UPDATE OR DELETE ON "Template"
    FOR EACH ROW EXECUTE FUNCTION "cms_changed"();

CREATE TRIGGER "Navigation_changed" AFTER INSERT OR UPDATE OR DELETE ON "Navigation"
    FOR EACH ROW EXECUTE FUNCTION "cms_changed"();

CREATE TRIGGER "NavigationItem_changed" AFTER INSERT OR UPDATE OR DELETE ON "NavigationItem"
    FOR EACH ROW EXECUTE FUNCTION "cms_changed"();

CREATE TRIGGER "Form_changed" AFTER INSERT OR UPDATE OR DELETE ON "Form"
    FOR EACH ROW EXECUTE FUNCTION "cms_changed"();

CREATE TRIGGER "Global_changed" AFTER INSERT OR UPDATE OR DELETE ON "Global"
    FOR EACH ROW EXECUTE FUNCTION "cms_changed"();

CREATE TRIGGER "Asset_changed" AFTER INSERT OR UPDATE OR DELETE ON "Asset"
    FOR EACH ROW EXECUTE FUNCTION "cms_changed"();

CREATE TRIGGER "Revision_changed" AFTER INSERT OR UPDATE OR DELETE ON "Revision"
    FOR EACH ROW EXECUTE FUNCTION "cms_changed"();

CREATE TRIGGER "TrashItem_changed" AFTER INSERT OR UPDATE OR DELETE ON "TrashItem"
    FOR EACH ROW EXECUTE FUNCTION "cms_changed"();

CREATE TRIGGER "Webhook_changed" AFTER INSERT OR UPDATE OR DELETE ON "Webhook"
    FOR EACH ROW EXECUTE FUNCTION "cms_changed"();

CREATE TRIGGER "WebhookDelivery_changed" AFTER INSERT OR UPDATE OR DELETE ON "WebhookDelivery"
    FOR EACH ROW EXECUTE FUNCTION "cms_changed"();
