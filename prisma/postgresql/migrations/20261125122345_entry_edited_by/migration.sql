-- AlterTable
ALTER TABLE "Entry" ADD COLUMN     "editedBy" TEXT;

-- Entry revisions are recorded by these triggers (src/db/entry-revisions.ts), on connections opened with
-- cms.record_revisions=on. An ID of src/schema/ids.ts's shape: the prefix, 10 characters of the time in
-- milliseconds, 16 random ones.
CREATE FUNCTION "cms_new_id"(prefix text) RETURNS text LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  alphabet constant text := '0123456789abcdefghjkmnpqrstvwxyz';
  ms bigint := floor(extract(epoch FROM clock_timestamp()) * 1000);
  body text := '';
BEGIN
  FOR place IN 1..10 LOOP
    body := substr(alphabet, (ms % 32)::int + 1, 1) || body;
    ms := ms / 32;
  END LOOP;
  FOR place IN 1..16 LOOP
    body := body || substr(alphabet, floor(random() * 32)::int + 1, 1);
  END LOOP;
  RETURN prefix || body;
END
$$;

-- The state is what src/schema/revisions/state.ts entryState makes of the row; times as toISOString writes them.
CREATE FUNCTION "cms_record_entry_revision"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('cms.record_revisions', true) IS DISTINCT FROM 'on' THEN
    RETURN NULL;
  END IF;
  INSERT INTO "Revision" ("id", "accountId", "recordType", "recordId", "number", "tokenId", "state", "createdAt")
  VALUES ("cms_new_id"('rev_'), NEW."accountId", 'entry', NEW."id",
    GREATEST(NEW."version" + 1,
      (SELECT COALESCE(max("number"), 0) + 1 FROM "Revision" WHERE "recordId" = NEW."id")),
    NEW."editedBy",
    jsonb_build_object('id', NEW."id", 'collection_id', NEW."collectionId", 'blueprint_id', NEW."blueprintId",
      'handle', NEW."handle", 'title', NEW."title", 'published', NEW."published",
      'published_at', to_char(NEW."publishedAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      'include_in_sitemap', NEW."includeInSitemap", 'position', NEW."position",
      'template_handle', NEW."templateHandle", 'layout_handle', NEW."layoutHandle",
      'content_path', NEW."contentPath", 'routing_override', NEW."routingOverride",
      'created_at', to_char(NEW."createdAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      'updated_at', to_char(NEW."updatedAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      'values', COALESCE(NEW."data", '{}'::jsonb)),
    NEW."updatedAt");
  RETURN NULL;
END
$$;

CREATE TRIGGER "Entry_revision_insert" AFTER INSERT ON "Entry"
  FOR EACH ROW EXECUTE FUNCTION "cms_record_entry_revision"();

CREATE TRIGGER "Entry_revision_update" AFTER UPDATE OF "version" ON "Entry"
  FOR EACH ROW WHEN (NEW."version" <> OLD."version") EXECUTE FUNCTION "cms_record_entry_revision"();
