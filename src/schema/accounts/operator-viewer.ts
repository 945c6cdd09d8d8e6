// Who the operator is when a CLI command acts for an account (`cms mcp --account`): the account's own
// write access, as its write token would have, under a token ID no real token has.
import type { Db } from "../../db/client.ts";
import { ApiError } from "../errors.ts";
import type { Viewer } from "./tokens.ts";

export async function operatorViewer(db: Db, accountId: string): Promise<Viewer> {
  const account = await db.account.findUnique({ where: { id: accountId }, select: { id: true } });
  if (!account) throw ApiError.notFound(`account ${accountId}`);
  return { accountId: account.id, scope: "write", tokenId: `operator:${account.id}` };
}
