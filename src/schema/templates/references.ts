// Collections and entries name templates by handle; an unknown handle is a 422 on that field. A write
// checks before its transaction, with its other problems; one naming a template anew checks again inside
// it, after `lockAccount`, which template renames and deletes take too (mutations.ts, trash/template.ts):
// else a template deleted or renamed meanwhile would be left named. A site import checks when it plans.
import type { AccountScope } from "../access.ts";
import { lockAccount } from "../account-lock.ts";
import type { Context } from "../context.ts";
import { Problems } from "../errors.ts";
import type { Tx } from "../webhooks/outbox.ts";

type References = Record<string, string | null | undefined>;

/** The pairs that name a template: null and undefined mean "not set". */
const named = (references: References) =>
  Object.entries(references).filter((pair): pair is [string, string] => typeof pair[1] === "string");

export const namesTemplate = (references: References) => named(references).length > 0;

/** Checks each given (field path -> template handle) pair, through `db`. */
export async function checkTemplateHandles(
  db: Tx,
  scope: AccountScope,
  references: References,
  problems: Problems,
): Promise<void> {
  const wanted = named(references);
  if (wanted.length === 0) return;
  const found = await db.template.findMany({
    where: { ...scope, handle: { in: wanted.map(([, handle]) => handle) } },
    select: { handle: true },
  });
  const known = new Set(found.map((template) => template.handle));
  for (const [path, handle] of wanted) {
    if (!known.has(handle)) problems.add(path, `no template with handle '${handle}'`);
  }
}

/** Inside a write's transaction: locks the account and checks again, when the write names a template. */
export async function requireTemplates(
  ctx: Context,
  tx: Tx,
  scope: AccountScope,
  references: References,
): Promise<void> {
  if (!namesTemplate(references)) return;
  await lockAccount(ctx, tx, scope.accountId);
  const problems = new Problems();
  await checkTemplateHandles(tx, scope, references, problems);
  problems.throwIfAny();
}
