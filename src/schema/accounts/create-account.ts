// Creating an account is an operator action (the `cms` CLI), not part of the tenant API.
import type { Db } from "../../db/client.ts";
import { ApiError } from "../errors.ts";
import { newId, prefixes } from "../ids.ts";
import { issueToken } from "./tokens.ts";

export interface NewAccount {
  account_id: string;
  token: string;
  domain: string;
}

const hostname =
  /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

export async function createAccount(db: Db, input: { name: string; domain: string }): Promise<NewAccount> {
  const name = input.name.trim();
  const domain = input.domain.trim().toLowerCase().replace(/:\d+$/, "");
  if (!name) throw ApiError.invalid("name", "is required");
  if (!hostname.test(domain)) throw ApiError.invalid("domain", "must be a host name such as acme.test");
  if (await db.account.findUnique({ where: { domain }, select: { id: true } })) {
    throw ApiError.invalid("domain", "is already used by another account");
  }
  const account = await db.account.create({ data: { id: newId(prefixes.account), name, domain } });
  const token = await issueToken(db, account.id);
  return { account_id: account.id, token, domain };
}
