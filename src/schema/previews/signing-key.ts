// The key preview links are signed with: 32 random bytes made by the first process that needs it and
// kept in the database (ServerSetting), so every process of one installation signs and verifies alike
// and links outlive a restart. Processes starting together may each try to store their own: the first
// insert wins (the key is the primary key), the others' fail, and every process then uses the stored one.
import { randomBytes } from "node:crypto";
import type { Db } from "../../db/client.ts";
import { unbounded } from "../../db/deadline.ts";
import { isUniqueViolation } from "../prisma-errors.ts";

const SETTING = "preview_signing_key";

/** Read once per process and database (the server has one database; tests of the CLI may have several). */
const keys = new WeakMap<Db, Promise<Buffer>>();

export function previewSigningKey(client: Db): Promise<Buffer> {
  // The process's, not the request's: keyed by the client itself and read without the request's deadline.
  const db = unbounded(client);
  let key = keys.get(db);
  if (!key) {
    key = storedKey(db);
    // A failed read (the database out of reach) is tried again by the next request.
    key.catch(() => keys.delete(db));
    keys.set(db, key);
  }
  return key;
}

async function storedKey(db: Db): Promise<Buffer> {
  const stored = await db.serverSetting.findUnique({ where: { key: SETTING } });
  if (stored) return Buffer.from(stored.value, "base64url");
  await db.serverSetting
    .create({ data: { key: SETTING, value: randomBytes(32).toString("base64url") } })
    .catch((error: unknown) => {
      if (!isUniqueViolation(error)) throw error;
    });
  const kept = await db.serverSetting.findUniqueOrThrow({ where: { key: SETTING } });
  return Buffer.from(kept.value, "base64url");
}
