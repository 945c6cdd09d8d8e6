// An entry's revisions are recorded by the database itself (recording may cost the writes less
// than a fifth of their throughput). Through Prisma, a second statement and the interactive transaction
// around the two cost a create about a third of its CPU on SQLite; a trigger writes the revision inside
// the entry's own INSERT or UPDATE for a few microseconds. It fires when an entry is inserted (a create, a
// trash restore) or its version moves (every recorded write bumps it), and records:
// - the number: the entry's version after the write, plus one (a create is 1), or one more than the
//   entry's last revision should that be higher (it never is, unless versions were written by hand);
// - the token: the entry's `editedBy`, which each write sets to its token;
// - the state: exactly what src/schema/revisions/state.ts `entryState` makes of the row;
// - the time: the entry's `updatedAt`.
// Recording is per connection, so that a process with REVISIONS_KEEP=0 REVISIONS_KEEP_DAYS=0 records
// nothing on a database shared with one that records (and the bench's seeding records nothing): on SQLite
// the triggers are TEMP triggers, created on the server's own connection after its migrations; on
// PostgreSQL they are in the schema (migration 20261125122345_entry_edited_by) and act on connections
// opened with `cms.record_revisions=on` (`recordingOption`).
import type { Database } from "./client.ts";

/** The IDs' alphabet (src/schema/ids.ts): a revision ID made here has the shape of one made there. */
const alphabet = "0123456789abcdefghjkmnpqrstvwxyz";

/** The startup option (pg's `options`) of a PostgreSQL connection that records entry revisions. */
export const recordingOption = "-c cms.record_revisions=on";

/** Creates this connection's recording triggers (SQLite; on PostgreSQL the connection option did it). */
export async function recordEntryRevisions({ db, provider }: Database): Promise<void> {
  if (provider !== "sqlite") return;
  for (const statement of sqliteTriggers) await db.$executeRawUnsafe(statement);
}

/** `rev_`, 10 characters of the time in milliseconds and 16 random ones (`newId`'s shape). */
function sqliteRevisionId(): string {
  const char = (index: string) => `substr('${alphabet}', (${index}) + 1, 1)`;
  const now = "CAST(round(unixepoch('subsec') * 1000) AS INTEGER)";
  const time = [9, 8, 7, 6, 5, 4, 3, 2, 1, 0].map((place) => char(`(${now} >> ${5 * place}) & 31`));
  const random = Array.from({ length: 16 }, () => char("random() & 31"));
  return `'rev_' || ${[...time, ...random].join(" || ")}`;
}

/** An ISO 8601 time as `Date.toISOString` writes it, from the adapter's stored text (…+00:00). */
const iso = (column: string) => `strftime('%Y-%m-%dT%H:%M:%fZ', NEW."${column}")`;
const bool = (column: string) => `json(CASE WHEN NEW."${column}" THEN 'true' ELSE 'false' END)`;

const sqliteRevision = `INSERT INTO "Revision"
    ("id", "accountId", "recordType", "recordId", "number", "tokenId", "state", "createdAt")
  VALUES (${sqliteRevisionId()}, NEW."accountId", 'entry', NEW."id",
    max(NEW."version" + 1, coalesce((SELECT max("number") FROM "Revision" WHERE "recordId" = NEW."id"), 0) + 1),
    NEW."editedBy",
    json_object('id', NEW."id", 'collection_id', NEW."collectionId", 'blueprint_id', NEW."blueprintId",
      'handle', NEW."handle", 'title', NEW."title", 'published', ${bool("published")},
      'published_at', ${iso("publishedAt")}, 'include_in_sitemap', ${bool("includeInSitemap")},
      'position', NEW."position", 'template_handle', NEW."templateHandle", 'layout_handle', NEW."layoutHandle",
      'content_path', NEW."contentPath", 'routing_override', NEW."routingOverride",
      'created_at', ${iso("createdAt")}, 'updated_at', ${iso("updatedAt")},
      'values', json(coalesce(NEW."data", '{}'))),
    NEW."updatedAt");`;

const sqliteTriggers = [
  `CREATE TEMP TRIGGER IF NOT EXISTS "cms_entry_revision_insert" AFTER INSERT ON main."Entry"
  BEGIN ${sqliteRevision} END`,
  `CREATE TEMP TRIGGER IF NOT EXISTS "cms_entry_revision_update" AFTER UPDATE OF "version" ON main."Entry"
  WHEN NEW."version" <> OLD."version" BEGIN ${sqliteRevision} END`,
];
