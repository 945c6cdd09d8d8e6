// The installation ID: made by the first process of an installation that opens its storage and kept in
// its database (ServerSetting), so every process on one database uses the same folder of asset files
// (storage.ts) and a process on another database, sharing the data directory or the bucket, another.
// Processes starting together may each try to store their own: the first insert wins (the key is the
// primary key), the others' fail, and every process then uses the stored one. A restore gives the
// database it fills an ID of its own (cli/restore.ts): a copy of an installation is another installation.
import { randomBytes } from "node:crypto";
import type { Db } from "../db/client.ts";
import { isUniqueViolation } from "../schema/prisma-errors.ts";

const SETTING = "installation_id";
const PREFIX = "inst_";

/** `inst_` and 26 lowercase base32 characters: a valid storage key (storage.ts). */
export function newInstallationId(): string {
  const alphabet = "0123456789abcdefghjkmnpqrstvwxyz";
  return PREFIX + [...randomBytes(26)].map((byte) => alphabet[byte % 32]).join("");
}

export async function installationId(db: Db): Promise<string> {
  const stored = await db.serverSetting.findUnique({ where: { key: SETTING } });
  if (stored) return stored.value;
  await db.serverSetting
    .create({ data: { key: SETTING, value: newInstallationId() } })
    .catch((error: unknown) => {
      if (!isUniqueViolation(error)) throw error;
    });
  return (await db.serverSetting.findUniqueOrThrow({ where: { key: SETTING } })).value;
}

/** Gives the database the installation ID `id` (a restored copy's own). */
export async function setInstallationId(db: Db, id: string): Promise<void> {
  await db.serverSetting.upsert({
    where: { key: SETTING },
    create: { key: SETTING, value: id },
    update: { value: id },
  });
}
