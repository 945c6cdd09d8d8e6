// The operator CLI (decisions.md): accounts and tokens, against the same database as the server.
//   cms account create --name "Acme" --domain acme.test [--json]
//   cms token create --account acct_… [--scope read|write] [--json]
//   cms token revoke --token …
import { parseArgs } from "node:util";
import { loadConfig } from "../config.ts";
import { openDatabase } from "../db/client.ts";
import { migrate } from "../db/migrate.ts";
import { createAccount } from "../schema/accounts/create-account.ts";
import { issueToken, revokeToken, type TokenScope } from "../schema/accounts/tokens.ts";
import { ApiError } from "../schema/errors.ts";

class UsageError extends Error {}

const usage = `usage:
  cms account create --name NAME --domain HOST [--json]
  cms token create --account ACCOUNT_ID [--scope read|write] [--json]
  cms token revoke --token TOKEN`;

const { positionals, values } = parseArgs({
  allowPositionals: true,
  strict: false,
  options: {
    name: { type: "string" },
    domain: { type: "string" },
    account: { type: "string" },
    scope: { type: "string" },
    token: { type: "string" },
    json: { type: "boolean" },
    help: { type: "boolean", short: "h" },
  },
});

function option(name: keyof typeof values): string {
  const value = values[name];
  if (typeof value !== "string" || value.trim() === "")
    throw new UsageError(`missing --${name} (see cms --help)`);
  return value;
}

function print(result: Record<string, string>, text: string): void {
  console.log(values.json ? JSON.stringify(result) : text);
}

async function run(): Promise<void> {
  const command = positionals.slice(0, 2).join(" ");
  const known = ["account create", "token create", "token revoke"];
  if (values.help || command === "") {
    console.log(usage);
    return;
  }
  if (!known.includes(command))
    throw new UsageError(`unknown command '${command}'; commands: ${known.join(", ")}`);
  const database = await openDatabase(loadConfig());
  try {
    await migrate(database);
    const { db } = database;
    if (command === "account create") {
      const account = await createAccount(db, { name: option("name"), domain: option("domain") });
      print({ ...account }, `account ${account.account_id} (${account.domain})\ntoken ${account.token}`);
    } else if (command === "token create") {
      const accountId = option("account");
      const scope = (values.scope ?? "write") as TokenScope;
      if (scope !== "read" && scope !== "write") throw new UsageError("--scope must be read or write");
      if (!(await db.account.findUnique({ where: { id: accountId }, select: { id: true } }))) {
        throw new UsageError(`no account ${accountId}`);
      }
      const token = await issueToken(db, accountId, scope);
      print({ token }, token);
    } else {
      if (!(await revokeToken(db, option("token")))) throw new UsageError("no such live token");
      print({ revoked: "true" }, "token revoked");
    }
  } finally {
    await database.db.$disconnect();
  }
}

try {
  await run();
} catch (error) {
  const message =
    error instanceof ApiError
      ? `${error.details.map((detail) => `${detail.path} ${detail.message}`).join("; ") || error.message}`
      : error instanceof UsageError
        ? error.message
        : `unexpected error: ${(error as Error).message}`;
  console.error(`cms: ${message}`);
  process.exitCode = 1;
}
