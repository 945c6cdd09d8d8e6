// Storing a new asset, whichever way its bytes arrived (base64 or multipart in create.ts, a download in
// create-from-url.ts), so every upload gets the same checks. The file is put in place before the row is
// written, and removed again when the row cannot be: no asset row ever lacks its bytes. A path and
// filename already taken in the account is a 422 on `filename`; an image or PDF whose bytes are not of
// its type a 422 on what named the type (signatures.ts).
import type { StagedFile } from "../../storage/storage.ts";
import type { Context } from "../context.ts";
import { ApiError } from "../errors.ts";
import { newId, prefixes } from "../ids.ts";
import { isUniqueViolation } from "../prisma-errors.ts";
import { withEvents } from "../webhooks/outbox.ts";
import { contentTypeFor } from "./content-types.ts";
import { SIGNATURE_BYTES, signatureProblem } from "./signatures.ts";

export const nameTaken = () =>
  ApiError.invalid("filename", "an asset with this path and filename already exists");

export interface AssetName {
  accountId: string;
  path: string;
  filename: string;
}

/** Where the type may come from, each with the input field a 422 about the type points at. */
export interface TypeSources {
  /** The `content_type` field. */
  field: string | null | undefined;
  /** The type the bytes came with (a data: URL's, a download's Content-Type) and what carried it. */
  declared?: { type: string; path: string };
  /** What gave the filename: "filename", or "url" when it was taken from the URL. */
  filenamePath: string;
}

/** Checked before any bytes are read or downloaded (the unique index decides in the end). */
export async function refuseTakenName(ctx: Context, name: AssetName): Promise<void> {
  const taken = await ctx.db.asset.findUnique({
    where: { accountId_path_filename: name },
    select: { id: true },
  });
  if (taken) throw nameTaken();
}

/** Stores the staged bytes as a new asset and returns its ID; the staged file is gone afterwards. */
export async function storeAsset(
  ctx: Context,
  name: AssetName,
  staged: StagedFile,
  sources: TypeSources,
): Promise<string> {
  const id = newId(prefixes.asset);
  try {
    const type = contentTypeFor(name.filename, sources.field ?? sources.declared?.type);
    const mismatch = signatureProblem(type, await ctx.storage.stagedHead(staged.id, SIGNATURE_BYTES));
    if (mismatch) throw ApiError.invalid(typeSource(type, sources), mismatch);
    await ctx.storage.commit(staged.id, name.accountId, id);
    try {
      const data = { ...name, id, contentType: type, fileSize: staged.size };
      const event = { type: "asset.created", kind: "asset", id } as const;
      await withEvents(
        ctx,
        name.accountId,
        [event.type],
        (db) => db.asset.create({ data }),
        () => [event],
      );
    } catch (error) {
      await ctx.storage.remove(name.accountId, id);
      throw isUniqueViolation(error) ? nameTaken() : error;
    }
  } finally {
    await ctx.storage.discard(staged.id);
  }
  return id;
}

/** What named the type: the content_type field, the type the bytes came with, else the filename. */
function typeSource(type: string, sources: TypeSources): string {
  if (sources.field && type === sources.field) return "content_type";
  return sources.declared && type === sources.declared.type ? sources.declared.path : sources.filenamePath;
}
