// What each `cms` command takes and does. Each only calls src/schema (or the theme installer) and says
// what it made: `json` is printed with --json, `text` otherwise.
import type { Config } from "../config.ts";
import type { Database } from "../db/client.ts";
import { migrate } from "../db/migrate.ts";
import { createAccount } from "../schema/accounts/create-account.ts";
import { createToken } from "../schema/accounts/create-token.ts";
import { listAccounts } from "../schema/accounts/list-accounts.ts";
import { listTokens } from "../schema/accounts/list-tokens.ts";
import { revokeToken, revokeTokenById } from "../schema/accounts/tokens.ts";
import { type OptionSpec, UsageError } from "./args.ts";
import { counted } from "./plural.ts";

export interface Outcome {
  json: unknown;
  text: string;
  /** Whether the command changed the database, for the line naming it. */
  wrote: boolean;
}

interface Command {
  options: Record<string, OptionSpec>;
  /** Applies the pending migrations itself (every other command has them applied first). */
  migrates?: boolean;
  run(database: Database, values: Record<string, string>, config: Config): Promise<Outcome>;
}

const json = { type: "boolean" } as const;
const flag = { type: "boolean" } as const;
const required = { type: "string", required: true } as const;
const optional = { type: "string" } as const;

export const commands: Record<string, Command> = {
  migrate: {
    options: { json },
    migrates: true,
    async run(database) {
      const applied = await migrate(database);
      const text = applied.length > 0 ? `applied ${applied.join(", ")}` : "no pending migrations";
      return { json: { applied }, text, wrote: applied.length > 0 };
    },
  },
  "account create": {
    options: { name: required, domain: required, json },
    async run({ db }, { name = "", domain = "" }) {
      const account = await createAccount(db, { name, domain });
      const text = `account ${account.account_id} (${account.domain})\ntoken ${account.token} (scope write)`;
      return { json: account, text, wrote: true };
    },
  },
  "account list": {
    options: { json },
    async run({ db }) {
      const accounts = await listAccounts(db);
      const lines = accounts.map((a) => `${a.account_id}  ${a.domain}  ${a.name}  created ${a.created_at}`);
      return { json: accounts, text: lines.join("\n") || "no accounts", wrote: false };
    },
  },
  "token create": {
    options: { account: required, scope: optional, json },
    async run({ db }, { account = "", scope = "write" }) {
      const created = await createToken(db, account, scope);
      const text = `token ${created.token} (scope ${created.scope}, account ${created.account_id})`;
      return { json: { token: created.token }, text, wrote: true };
    },
  },
  "token list": {
    options: { account: required, json },
    async run({ db }, { account = "" }) {
      const tokens = await listTokens(db, account);
      const lines = tokens.map(
        (t) =>
          `${t.id}  ${t.prefix ? `${t.prefix}…` : "(no prefix)"}  ${t.scope}  created ${t.created_at}${t.revoked_at ? `  revoked ${t.revoked_at}` : ""}`,
      );
      return { json: tokens, text: lines.join("\n") || "no tokens", wrote: false };
    },
  },
  "token revoke": {
    options: { token: optional, id: optional, json },
    async run({ db }, { token, id }) {
      if ((token === undefined) === (id === undefined)) throw new UsageError("give one of --token or --id");
      const revoked = token ? await revokeToken(db, token) : await revokeTokenById(db, id ?? "");
      if (!revoked) throw new UsageError("no such live token");
      return { json: { revoked: "true" }, text: "token revoked", wrote: true };
    },
  },
  "theme install": {
    options: { account: required, name: optional, path: optional, json },
    async run(database, { account = "", name, path }) {
      if (name !== undefined && path !== undefined) throw new UsageError("give one of --name or --path");
      // Loaded here only: the installer brings in the whole GraphQL schema.
      const { installTheme } = await import("./theme.ts");
      const { installed } = await installTheme(
        database,
        account,
        path ? { path } : { name: name ?? "starter" },
      );
      const text = `theme ${path ?? name ?? "starter"} installed in account ${account}: ${installed.join(", ")}`;
      return { json: { installed }, text, wrote: true };
    },
  },
  export: {
    options: { account: required, out: required, json },
    async run(database, { account = "", out = "" }, config) {
      // Loaded here only: the export brings in the schema and the archive writer.
      const { exportToFile } = await import("./export.ts");
      const summary = await exportToFile(database, config, account, out);
      const missing = summary.missing_files
        ? `, ${counted(summary.missing_files, "asset file")} missing`
        : "";
      const text = `exported ${counted(summary.collections, "collection")}, ${counted(summary.entries, "entry", "entries")} and ${counted(summary.assets, "asset")} to ${summary.file}${missing}`;
      return { json: summary, text, wrote: false };
    },
  },
  "assets copy-to-s3": {
    options: { to: optional, json },
    async run(database, { to }, config) {
      // Loaded here only: the AWS SDK is large.
      const { copyAssetsToS3 } = await import("./copy-to-s3.ts");
      const summary = await copyAssetsToS3(database, config, to);
      const text = `copied ${counted(summary.copied, "asset file")} (${counted(summary.bytes, "byte")}) to ${summary.bucket}; ${summary.skipped} ${summary.skipped === 1 ? "was" : "were"} already there`;
      return { json: summary, text, wrote: false };
    },
  },
  import: {
    options: {
      account: required,
      file: { type: "string", required: true, positional: true },
      "dry-run": flag,
      json,
    },
    async run(database, { account = "", file = "", "dry-run": dryRun }, config) {
      // Loaded here only: the import brings in the schema and the archive reader.
      const { importFromFile, reportText } = await import("./import.ts");
      const report = await importFromFile(database, config, account, file, dryRun === "true");
      return { json: report, text: reportText(report), wrote: !report.dry_run };
    },
  },
  backup: {
    options: { out: required, json },
    async run(database, { out = "" }, config) {
      // Loaded here only: the archive writer.
      const { backupToFile } = await import("./backup.ts");
      const summary = await backupToFile(database, config, out);
      const text = `backed up the ${summary.database} database and ${counted(summary.assets, "asset file")} to ${summary.file} (${counted(summary.bytes, "byte")})`;
      return { json: summary, text, wrote: false };
    },
  },
  "preview-key rotate": {
    options: { json },
    async run({ db }) {
      const { rotatePreviewSigningKey } = await import("../schema/previews/signing-key.ts");
      await rotatePreviewSigningKey(db);
      const text = "preview links are now signed with a new key; every link made before is refused";
      return { json: { rotated: true }, text, wrote: true };
    },
  },
  doctor: {
    options: { json },
    async run(database, _values, config) {
      const { diagnose, reportText } = await import("./doctor.ts");
      const report = await diagnose(database, config);
      return { json: report, text: reportText(report), wrote: false };
    },
  },
};

/** `cms restore`: run by cms.ts itself, since it must not open (and so create) the database first. */
export const restoreOptions: Record<string, OptionSpec> = {
  file: { type: "string", required: true, positional: true },
  json,
};

/** `cms mcp`: served by cms.ts itself, since it holds stdout for the protocol until stdin closes. */
export const mcpOptions: Record<string, OptionSpec> = { token: optional, account: optional };

export const usage = `usage:
  cms migrate [--json]   applies pending migrations (every command and the server do it too; run it once at deploy)
  cms account create --name NAME --domain HOST [--json]
  cms account list [--json]
  cms token create --account ACCOUNT_ID [--scope read|write] [--json]
  cms token list --account ACCOUNT_ID [--json]
  cms token revoke (--token TOKEN | --id TOKEN_ID)
  cms theme install --account ACCOUNT_ID [--name starter | --path DIR] [--json]   a shipped theme, or DIR's theme.json
  cms export --account ACCOUNT_ID --out FILE.yaml|FILE.tar.gz [--json]   the whole site (.tar.gz: with asset files)
  cms import --account ACCOUNT_ID FILE.yaml|FILE.tar.gz [--dry-run] [--json]   a whole site, all or nothing
  cms backup --out FILE.tar.gz [--json]   the whole instance (database and asset files), while the server runs
  cms restore FILE.tar.gz [--json]   a backup into an empty data directory (or PostgreSQL database)
  cms preview-key rotate [--json]   a new preview signing key: every outstanding preview link stops working
  cms doctor [--json]   asset files no asset names, and assets whose file is missing
  cms assets copy-to-s3 [--to s3://BUCKET/PREFIX] [--json]   copies CMS_DATA_DIR/assets into the bucket (default: ASSET_STORAGE's)
  cms mcp (--token TOKEN | --account ACCOUNT_ID)   the tool interface (MCP) over stdin/stdout
They use the database the server's settings name: DATABASE_URL, else CMS_DATA_DIR (default ./data), from the
environment or else from .env in the working directory; stderr says which database was used.`;
