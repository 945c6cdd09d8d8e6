// `cms theme install`: copies a theme into an account, either one shipped in themes/<name>/ or any
// directory holding a theme.json. Every file the manifest names is read, and its Liquid checked, before
// anything is saved: a theme with a mistake is refused whole. Each template is then saved through the
// schema's templateCreate/templateUpdate mutations (the same validation and rules as over the API),
// created when the account has no template of that handle and updated when it has, so installing again
// brings the account's copy up to date without duplicates.
import { readdir, readFile, stat } from "node:fs/promises";
import { join, relative, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { execute, parse } from "graphql";
import { z } from "zod";
import type { Database } from "../db/client.ts";
import { projectRoot } from "../project-root.ts";
import { ApiError } from "../schema/errors.ts";
import { createContext, schema } from "../schema/index.ts";
import type { Storage } from "../storage/storage.ts";
import { UsageError } from "./args.ts";

/** The shipped themes, found from the project root so that the built CLI finds them too. */
export const THEMES_DIR = pathToFileURL(join(projectRoot, "themes/"));

/** theme.json: the templates in the order they are saved (a layout before what uses it). */
const manifestSchema = z.object({
  name: z.string().optional(),
  description: z.string().optional(),
  templates: z
    .array(
      z.object({
        handle: z.string().min(1),
        kind: z.enum(["layout", "template", "partial"]),
        title: z.string().min(1),
      }),
    )
    .min(1),
});

/** Which theme: a shipped one by name, or the folder at a path. */
export type ThemeSource = { name: string } | { path: string };

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

/** The folder of the theme asked for, as an absolute path. */
async function themeFolder(source: ThemeSource): Promise<string> {
  if ("name" in source) {
    const names = await themeNames();
    if (!names.includes(source.name))
      throw new ApiError(404, `no theme named '${source.name}'; the themes are: ${names.join(", ")}`);
    return join(projectRoot, "themes", source.name);
  }
  const folder = resolve(source.path);
  const found = await stat(folder).catch(() => undefined);
  if (!found?.isDirectory()) throw new UsageError(`--path ${source.path}: no such directory (${folder})`);
  return folder;
}

interface ThemeTemplate {
  handle: string;
  kind: "layout" | "template" | "partial";
  title: string;
  html: string;
}

/** The manifest's templates with their sources, each file read and checked to lie inside the folder. */
async function readTheme(folder: string): Promise<ThemeTemplate[]> {
  const manifestFile = join(folder, "theme.json");
  const text = await readFile(manifestFile, "utf8").catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(
      error.code === "ENOENT"
        ? `no theme.json in ${folder}: a theme's folder lists its templates there (see docs/themes.md)`
        : `cannot read ${manifestFile}: ${error.code ?? error.message}`,
    );
  });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${manifestFile} is not JSON: ${(error as Error).message}`);
  }
  const manifest = manifestSchema.safeParse(json);
  if (!manifest.success) {
    const issue = manifest.error.issues[0];
    throw new UsageError(`${manifestFile}: ${issue?.path.join(".") || "the file"} ${issue?.message}`);
  }
  return Promise.all(
    manifest.data.templates.map(async (template) => {
      const file = resolve(folder, `${template.handle}.liquid`);
      // A handle such as ../../secret would read a file outside the theme.
      if (!file.startsWith(folder + sep))
        throw new UsageError(
          `${manifestFile}: the handle '${template.handle}' names a file outside ${folder}`,
        );
      const html = await readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
        throw new UsageError(
          `${manifestFile} lists '${template.handle}', but ${relative(folder, file)} is missing from ${folder} (${error.code})`,
        );
      });
      return { ...template, html };
    }),
  );
}

const validateTemplate = parse(`query ($account: ID!, $html: String!) {
  templateValidate(account_id: $account, html: $html) { valid errors { line message } } }`);
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

interface Validation {
  valid: boolean;
  errors: { line: number; message: string }[];
}

/** Installs the theme into the account; returns the handles of the templates saved, in order. */
export async function installTheme(
  database: Database,
  accountId: string,
  source: ThemeSource,
): Promise<{ installed: string[] }> {
  const templates = await readTheme(await themeFolder(source));
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
    return result.data as Record<string, unknown>;
  };
  for (const { handle, html } of templates) {
    const checked = await run(validateTemplate, { account: accountId, html });
    const { valid, errors } = checked.templateValidate as Validation;
    const [first] = errors;
    if (!valid && first)
      throw new UsageError(`${handle}.liquid line ${first.line}: ${first.message}; nothing was installed`);
  }
  const installed: string[] = [];
  for (const { handle, kind, title, html } of templates) {
    const found = (await run(findTemplate, { account: accountId, handle })) as {
      templates?: { data?: { id: string }[] };
    };
    const id = found.templates?.data?.[0]?.id;
    const input = { handle, kind, title, html };
    await (id
      ? run(updateTemplate, { account: accountId, id, input })
      : run(createTemplate, { account: accountId, input })
    ).catch((error) => {
      // Named: a handle or title the schema refuses comes from one of the manifest's templates.
      if (error instanceof ApiError && error.details.length > 0)
        throw new UsageError(
          `template '${handle}': ${error.details.map((detail) => `${detail.path} ${detail.message}`).join("; ")}`,
        );
      throw error;
    });
    installed.push(handle);
  }
  return { installed };
}
