// The key preview links are signed with: 32 random bytes made by the first process that needs it and
// kept in the database (ServerSetting), so every process of one installation signs and verifies alike
// and links outlive a restart. Processes starting together may each try to store their own: the first
// insert wins (the key is the primary key), the others' fail, and every process then uses the stored one.
// The key is read from the database at each use (one lookup by primary key, for the rare request that
// makes or opens a preview link), so that a rotation (`cms preview-key rotate`) ends every outstanding
// link at once, in every running process.
import { randomBytes } from "node:crypto";
import type { Db } from "../../db/client.ts";
import { unbounded } from "../../db/deadline.ts";
import { isUniqueViolation } from "../prisma-errors.ts";

const SETTING = "preview_signing_key";

const newKey = () => randomBytes(32).toString("base64url");

export async function previewSigningKey(client: Db): Promise<Buffer> {
  // The installation's, not the request's: read without the request's deadline.
  const db = unbounded(client);
  const stored = await db.serverSetting.findUnique({ where: { key: SETTING } });
  if (stored) return Buffer.from(stored.value, "base64url");
  await db.serverSetting.create({ data: { key: SETTING, value: newKey() } }).catch((error: unknown) => {
    if (!isUniqueViolation(error)) throw error;
  });
  const kept = await db.serverSetting.findUniqueOrThrow({ where: { key: SETTING } });
  return Buffer.from(kept.value, "base64url");
}

/** Replaces the key with a new one: every link signed before is refused from the next request on. */
export async function rotatePreviewSigningKey(db: Db): Promise<void> {
  const value = newKey();
  await db.serverSetting.upsert({
    where: { key: SETTING },
    create: { key: SETTING, value },
    update: { value },
  });
}
