// The site import's speed (the target: 100,000 entries in under 30 s on SQLite on a 2-core machine): a
// `cms-site/1` document of `entries` entries (a collection with text, list and entity fields, each entry
// referencing the one before it, so that references are resolved and written too) is imported into a
// fresh account in-process, as `cms import` does it: parsed, checked whole, then written in batches in
// one transaction, each entry's first revision included. Reported as entries imported per second.

import { join } from "node:path";
import type { Database } from "../src/db/client.ts";
import { createAccount } from "../src/schema/accounts/create-account.ts";
import { operatorViewer } from "../src/schema/accounts/operator-viewer.ts";
import { createContext } from "../src/schema/context.ts";
import { importSite } from "../src/schema/import/index.ts";
import { installationId } from "../src/storage/installation.ts";
import { createLocalStorage } from "../src/storage/local.ts";

export interface ImportCost {
  entries: number;
  document_mb: number;
  seconds: number;
  /** This process's CPU time (user + system): steadier than the wall time on a busy machine. */
  cpu_seconds: number;
  entries_per_second: number;
  peak_rss_mb: number;
}

/** The document, written line by line: `yaml` would take longer to write it than the import to read it. */
export function siteDocument(entries: number): string {
  const lines = [
    "format: cms-site/1",
    "collections:",
    "  - handle: notes",
    "    name: Notes",
    "    routing: notes/:handle",
    "    blueprints:",
    "      - handle: note",
    "        title: Note",
    "        fields:",
    "          - { handle: body, type: text }",
    "          - { handle: tags, type: list }",
    "          - { handle: previous, type: entity, options: { collection: notes } }",
    "entries:",
    "  notes:",
  ];
  for (let index = 0; index < entries; index++) {
    lines.push(
      `    - handle: note-${index}`,
      `      title: Note ${index}`,
      "      published: true",
      `      published_at: ${new Date(Date.UTC(2024, 0, 1) + index * 60_000).toISOString()}`,
      "      values:",
      `        body: The body of note ${index}, a line of text as a note would have.`,
      `        tags: [bench, n${index % 10}]`,
      ...(index > 0 ? [`        previous: notes:note-${index - 1}`] : []),
    );
  }
  lines.push("complete: true", "");
  return lines.join("\n");
}

export async function importCost(database: Database, dataDir: string, entries: number): Promise<ImportCost> {
  const account = await createAccount(database.db, { name: "Import bench", domain: "import.bench.test" });
  const storage = await createLocalStorage(join(dataDir, "assets"), await installationId(database.db));
  const ctx = createContext({ ...database, storage, uploadLimit: 0 }, { headers: new Headers() });
  const viewer = await operatorViewer(database.db, account.account_id);
  ctx.viewer = async () => viewer;
  const document = siteDocument(entries);
  let peak = process.memoryUsage().rss;
  const watch = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 100);
  const started = performance.now();
  const cpu = process.cpuUsage();
  try {
    const report = await importSite(ctx, account.account_id, { document });
    if (report.created.entries !== entries)
      throw new Error(`imported ${report.created.entries} of ${entries}`);
  } finally {
    clearInterval(watch);
  }
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  return {
    entries,
    document_mb: Math.round((Buffer.byteLength(document) / 1024 / 1024) * 10) / 10,
    seconds: Math.round(seconds * 10) / 10,
    cpu_seconds: Math.round((used.user + used.system) / 100_000) / 10,
    entries_per_second: Math.round(entries / seconds),
    peak_rss_mb: Math.round(peak / 1024 / 1024),
  };
}
