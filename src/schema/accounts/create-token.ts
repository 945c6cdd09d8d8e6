// A new API token for an existing account (`cms token create`), shown once.
import type { Db } from "../../db/client.ts";
import { ApiError } from "../errors.ts";
import { issueToken, type TokenScope } from "./tokens.ts";

export interface NewToken {
  token: string;
  scope: TokenScope;
  account_id: string;
}

export async function createToken(db: Db, accountId: string, scope: string): Promise<NewToken> {
  if (scope !== "read" && scope !== "write") throw ApiError.invalid("scope", "must be read or write");
  if (!(await db.account.findUnique({ where: { id: accountId }, select: { id: true } })))
    throw ApiError.notFound(`account ${accountId}`);
  return { token: await issueToken(db, accountId, scope), scope, account_id: accountId };
}
