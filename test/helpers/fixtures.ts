// Accounts and clients that several test files set up the same way.
import { expect } from "vitest";
import { type Api, api } from "./api.ts";
import { cms, createAccount, type TestAccount } from "./cli.ts";
import type { TestServer } from "./server.ts";

/** A client on `account` with a read-scoped token made by `cms token create`. */
export async function readOnlyApi(server: TestServer, account: TestAccount): Promise<Api> {
  const token = await cms(server, [
    "token",
    "create",
    "--account",
    account.account_id,
    "--scope",
    "read",
    "--json",
  ]);
  expect(token.code, token.stderr).toBe(0);
  return api(server, account, JSON.parse(token.stdout).token);
}

export interface MainPagedOther {
  /** The "Main" account. */
  client: Api;
  /** The "Paged" account, for the pagination tests. */
  paged: Api;
  /** The "Other" account. */
  other: Api;
  /** Other's token on Main's account. */
  otherOnMain: Api;
  /** A read-scoped token on Main's account. */
  reader: Api;
}

/** Three accounts, Main, Paged and Other, and the clients the resource tests use on them. */
export async function mainPagedOther(server: TestServer): Promise<MainPagedOther> {
  const [main, second, third] = await Promise.all([
    createAccount(server, "Main"),
    createAccount(server, "Paged"),
    createAccount(server, "Other"),
  ]);
  return {
    client: api(server, main),
    paged: api(server, second),
    other: api(server, third),
    otherOnMain: api(server, main, third.token),
    reader: await readOnlyApi(server, main),
  };
}
