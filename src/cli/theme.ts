// `cms theme install`: copies a theme shipped in themes/<name>/ into an account. Each template its
// theme.json names is saved through the schema's templateCreate/templateUpdate mutations (the same
// validation and rules as over the API), created when the account has no template of that handle and
// updated when it has, so installing again brings the account's copy up to date without duplicates.
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { execute, parse } from "graphql";
import type { Database } from "../db/client.ts";
import { projectRoot } from "../project-root.ts";
import { ApiError } from "../schema/errors.ts";
import { createContext, schema } from "../schema/index.ts";
import type { Storage } from "../storage/storage.ts";

/** The shipped themes, found from the project root so that the built CLI finds them too. */
export const THEMES_DIR = pathToFileURL(join(projectRoot, "themes/"));

interface ThemeTemplate {
  handle: string;
  kind: "layout" | "template" | "partial";
  title: string;
}

interface ThemeManifest {
  name: string;
  description: string;
  templates: ThemeTemplate[];
}

/** The names of the shipped themes: the folders of themes/ that hold a theme.json. */
export async function themeNames(): Promise<string[]> {
  const folders = await readdir(THEMES_DIR, { withFileTypes: true });
  const names = await Promise.all(
    folders
      .filter((folder) => folder.isDirectory())
      .map(async (folder) => {
        const files = await readdir(new URL(`${folder.name}/`, THEMES_DIR));
        return files.includes("theme.json") ? folder.name : null;
      }),
  );
  return names.filter((name): name is string => name !== null).sort();
}

async function readManifest(name: string): Promise<ThemeManifest> {
  const names = await themeNames();
  if (!names.includes(name))
    throw new ApiError(404, `no theme named '${name}'; the themes are: ${names.join(", ")}`);
  return JSON.parse(await readFile(new URL(`${name}/theme.json`, THEMES_DIR), "utf8")) as ThemeManifest;
}

const findTemplate = parse(`query ($account: ID!, $handle: String!) {
  templates(account_id: $account, handle: $handle) { data { id } } }`);
const createTemplate = parse(`mutation ($account: ID!, $input: TemplateCreateInput!) {
  templateCreate(account_id: $account, input: $input) { handle } }`);
const updateTemplate = parse(`mutation ($account: ID!, $id: ID!, $input: TemplateUpdateInput!) {
  templateUpdate(account_id: $account, id: $id, input: $input) { handle } }`);

/** Saving templates never touches uploaded files. */
const noStorage = new Proxy({} as Storage, {
  get: () => () => Promise.reject(new Error("the theme installer has no file storage")),
});

/** Installs the theme `name` into the account; returns the handles of the templates saved, in order. */
export async function installTheme(
  database: Database,
  accountId: string,
  name: string,
): Promise<{ installed: string[] }> {
  const manifest = await readManifest(name);
  const account = await database.db.account.findUnique({ where: { id: accountId }, select: { id: true } });
  if (!account) throw new ApiError(404, `no account ${accountId}`);
  const ctx = createContext(
    { db: database.db, provider: database.provider, storage: noStorage, uploadLimit: 0 },
    { headers: new Headers() },
  );
  // The operator acts for the account, as its write token would.
  ctx.viewer = async () => ({ accountId, scope: "write", tokenId: "cli" });
  const run = async (document: typeof findTemplate, variables: Record<string, unknown>) => {
    const result = await execute({ schema, document, contextValue: ctx, variableValues: variables });
    const error = result.errors?.[0];
    if (error) throw error.originalError ?? error;
    return result.data as Record<string, { data?: { id: string }[] }>;
  };
  const installed: string[] = [];
  for (const { handle, kind, title } of manifest.templates) {
    const html = await readFile(new URL(`${name}/${handle}.liquid`, THEMES_DIR), "utf8");
    const found = await run(findTemplate, { account: accountId, handle });
    const id = found.templates?.data?.[0]?.id;
    const input = { handle, kind, title, html };
    await (id
      ? run(updateTemplate, { account: accountId, id, input })
      : run(createTemplate, { account: accountId, input }));
    installed.push(handle);
  }
  return { installed };
}
