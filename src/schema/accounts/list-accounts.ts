// Listing the accounts is an operator action (`cms account list`), not part of the tenant API.
import type { Db } from "../../db/client.ts";

export interface AccountSummary {
  account_id: string;
  name: string;
  domain: string;
  created_at: string;
}

/** Every account, oldest first. */
export async function listAccounts(db: Db): Promise<AccountSummary[]> {
  const accounts = await db.account.findMany({
    select: { id: true, name: true, domain: true, createdAt: true },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return accounts.map((account) => ({
    account_id: account.id,
    name: account.name,
    domain: account.domain,
    created_at: account.createdAt.toISOString(),
  }));
}
