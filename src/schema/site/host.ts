// An account's public site is served to requests whose Host (port ignored) is the account's domain.
import type { Db } from "../../db/client.ts";
import { hostName } from "../assets/public.ts";

export interface SiteAccount {
  id: string;
  name: string;
  domain: string;
}

export async function findSite(db: Db, host: string | null | undefined): Promise<SiteAccount | null> {
  const domain = hostName(host);
  if (!domain) return null;
  return db.account.findUnique({ where: { domain }, select: { id: true, name: true, domain: true } });
}
