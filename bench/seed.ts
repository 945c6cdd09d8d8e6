// Seeds the bench database. The account comes from the CLI's own function, the configuration (templates,
// collections with their blueprints, a navigation, a global) through the REST API, like a user would
// make it. The 100,000 entries go straight into the database through Prisma `createMany` in batches,
// written by two worker threads (seed-writers.ts): through the API they would take many minutes. Each row is what the API would have written: IDs from
// the schema's `newId`, content paths from its `contentPath`, entity values stored as entry IDs with
// their EntryReference rows.
import { readFileSync } from "node:fs";
import type { Database } from "../src/db/client.ts";
import { createAccount } from "../src/schema/accounts/create-account.ts";
import { contentPath } from "../src/schema/entries/paths.ts";
import { newId, prefixes } from "../src/schema/ids.ts";
import { progressBar } from "./progress.ts";
import { startWriters } from "./seed-writers.ts";

export const DOMAIN = "bench.test";
const themeDir = new URL("../test/fixtures/blog-theme/", import.meta.url);
const themeFiles: Record<string, string> = {
  theme: "layout",
  byline: "partial",
  post: "template",
  page: "template",
  "blog-index": "template",
  "404": "template",
};

export interface SeedPlan {
  authors: number;
  pages: number;
  posts: number;
}

export function planFor(total: number): SeedPlan {
  const authors = Math.min(1000, Math.floor(total / 100));
  const pages = authors;
  return { authors, pages, posts: total - authors - pages };
}

export interface Seeded {
  accountId: string;
  token: string;
  domain: string;
  /** Handles of seeded posts, and the IDs of the authors, for the workloads. */
  postHandles: string[];
  authorIds: string[];
  seconds: number;
}

interface EntryRow {
  id: string;
  accountId: string;
  collectionId: string;
  blueprintId: string;
  handle: string;
  title: string;
  publishedAt: Date;
  contentPath: string;
  data: object;
  createdAt: Date;
  updatedAt: Date;
}

type Client = (method: string, path: string, body?: unknown) => Promise<Record<string, any>>;

function client(baseUrl: string, accountId: string, token: string): Client {
  return async (method, path, body) => {
    const send = () =>
      fetch(`${baseUrl}/v1/accounts/${accountId}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    // A kept-alive connection idle during the bulk insert may have been closed by the server meanwhile.
    const response = await send().catch(send);
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return text ? JSON.parse(text) : {};
  };
}

export async function seed(
  database: Database,
  connection: { dataDir: string; databaseUrl: string | undefined },
  baseUrl: string,
  total: number,
  /** Another account beside the first (mixed.ts seeds a second tenant with its own site). */
  tenant: { name: string; domain: string } = { name: "Bench", domain: DOMAIN },
): Promise<Seeded> {
  const started = Date.now();
  const { db } = database;
  const writers = startWriters(connection);
  const account = await createAccount(db, tenant);
  const api = client(baseUrl, account.account_id, account.token);

  for (const [handle, kind] of Object.entries(themeFiles)) {
    const html = readFileSync(new URL(`${handle}.liquid`, themeDir), "utf8");
    await api("POST", "/templates", { template: { handle, title: handle, kind, html } });
  }
  const authors = await api("POST", "/collections", {
    name: "Authors",
    handle: "authors",
    routing: "authors/:handle",
    template_handle: "page",
    blueprint: { fields: [{ handle: "body", type: "rich_text" }] },
  });
  const pages = await api("POST", "/collections", {
    name: "Pages",
    handle: "pages",
    routing: ":handle",
    root_routing: true,
    template_handle: "page",
    blueprint: { fields: [{ handle: "body", type: "rich_text" }] },
  });
  const posts = await api("POST", "/collections", {
    name: "Posts",
    handle: "post",
    routing: "blog/:handle",
    template_handle: "post",
    index_routing: "blog",
    index_template_handle: "blog-index",
    index_per_page: 10,
    schema_type: "BlogPosting",
    blueprint: {
      fields: [
        { handle: "summary", type: "text" },
        { handle: "body", type: "rich_text" },
        { handle: "rating", type: "number" },
        { handle: "author", type: "entity", options: { collection: "authors" } },
      ],
    },
  });
  await api("POST", "/globals", {
    name: "Footer",
    handle: "footer",
    fields: [{ handle: "copyright", type: "text" }],
    copyright: `(c) ${tenant.name}`,
  });

  const plan = planFor(total);
  const bar = progressBar("seeding entries", total);
  /** Rows prepared (their creation times follow it) and rows written. */
  let done = 0;
  let written = 0;
  const insert = async (
    collection: Record<string, any>,
    count: number,
    row: (index: number) => { handle: string; title: string; data: Record<string, unknown>; toId?: string },
  ) => {
    const blueprintId = (collection.blueprints as { id: string }[])[0]?.id;
    if (!blueprintId) throw new Error(`collection ${collection.handle} has no blueprint`);
    const ids: string[] = [];
    const base = Date.now() - total * 1000;
    const batch = database.provider === "postgresql" ? 1000 : 2000;
    // One batch per writer thread at a time; PostgreSQL takes two each (its pools have 10 connections).
    const parallel = database.provider === "postgresql" ? 4 : 2;
    const pending: Promise<void>[] = [];
    for (let start = 0; start < count; start += batch) {
      const entries: EntryRow[] = [];
      const references: { accountId: string; fromId: string; field: string; toId: string }[] = [];
      for (let index = start; index < Math.min(count, start + batch); index++) {
        const id = newId(prefixes.entry);
        const values = row(index);
        // One second apart, so the newest-first order is the creation order.
        const createdAt = new Date(base + (done + index - start) * 1000);
        const path = contentPath(
          { routing: collection.routing, rootRouting: collection.root_routing },
          { handle: values.handle, publishedAt: createdAt, createdAt, routingOverride: null },
          {},
        );
        if (!("path" in path)) throw new Error(`no path for ${values.handle}`);
        entries.push({
          id,
          accountId: account.account_id,
          collectionId: collection.id as string,
          blueprintId,
          handle: values.handle,
          title: values.title,
          publishedAt: createdAt,
          contentPath: path.path,
          data: values.data as object,
          createdAt,
          updatedAt: createdAt,
        });
        if (values.toId) {
          references.push({ accountId: account.account_id, fromId: id, field: "author", toId: values.toId });
        }
        ids.push(id);
      }
      const write = async () => {
        await writers.write({ entries, references });
        written += entries.length;
        bar.tick(written);
      };
      done += entries.length;
      pending.push(write());
      if (pending.length >= parallel) await Promise.all(pending.splice(0));
    }
    await Promise.all(pending);
    return ids;
  };

  const paragraph = (n: number) =>
    `<p>Paragraph ${n} of a benchmark entry: <strong>rich</strong> text with <a href="/blog/post-${n}">a link</a>, long enough to look like content that someone actually wrote.</p>`;
  let authorIds: string[];
  const postHandles: string[] = [];
  try {
    authorIds = await insert(authors, plan.authors, (index) => ({
      handle: `author-${index}`,
      title: `Author ${index}`,
      data: { body: paragraph(index) },
    }));
    await insert(pages, plan.pages, (index) => ({
      handle: index === 0 ? "index" : `page-${index}`,
      title: index === 0 ? "Home" : `Page ${index}`,
      data: { body: paragraph(index) },
    }));
    await insert(posts, plan.posts, (index) => {
      const handle = `post-${index}`;
      postHandles.push(handle);
      const author = authorIds[index % authorIds.length];
      return {
        handle,
        title: `Post number ${index}`,
        data: {
          summary: `Summary of post ${index}`,
          body: [1, 2, 3].map((n) => paragraph(index + n)).join(""),
          rating: index % 5,
          ...(author && { author }),
        },
        ...(author && { toId: author }),
      };
    });
  } finally {
    await writers.close();
  }
  bar.finish();
  // PostgreSQL: what autovacuum does soon after a bulk load (statistics, and the visibility map that
  // lets it answer from an index alone).
  // SQLite: the statistics the server gathers itself within a minute of the entries doubling.
  if (database.provider === "postgresql") await db.$executeRawUnsafe('VACUUM ANALYZE "Entry"');
  else await db.$executeRawUnsafe("ANALYZE");

  await api("POST", "/navigations", { title: "Main", handle: "main" });
  const first = await api("POST", "/navigations/main/items", {
    title: "First post",
    collection_handle: "post",
    entry_handle: "post-0",
  });
  await api("POST", "/navigations/main/items", {
    title: "Docs",
    url: "https://docs.test/",
    parent_id: first.id,
  });
  await api("POST", "/navigations/main/items", {
    title: "Home",
    collection_handle: "pages",
    entry_handle: "index",
  });

  if (authorIds.length === 0) throw new Error("no authors seeded");
  return {
    accountId: account.account_id,
    token: account.token,
    domain: account.domain,
    postHandles,
    authorIds,
    seconds: (Date.now() - started) / 1000,
  };
}
