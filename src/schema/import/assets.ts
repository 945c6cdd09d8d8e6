// The `assets` section: each file's folder, name and type, held to assetCreate's rules (names.ts). The
// bytes come only with an archive (.tar.gz: `assets/<folder>/<filename>`); they must have the size and
// SHA-256 the document gives and be of their type (signatures.ts), as any upload. A new asset's file is
// put in place inside the import's write (a failed import removes it again); a stored asset whose bytes
// differ gets the new ones after the import committed. In an archive every asset's bytes must be there
// (a member that is a link, or a name with `..`, is skipped and so missing): an asset without them is a
// problem naming it, unless the account has it already with the document's bytes. Without an archive,
// assets the account lacks are not created (an asset row never lacks its bytes): the report says so.
import { contentTypeFor } from "../assets/content-types.ts";
import { SIGNATURE_BYTES, signatureProblem } from "../assets/signatures.ts";
import { sha256Of } from "../export/checksum.ts";
import { assetReference } from "../export/references.ts";
import { prefixes } from "../ids.ts";
import { checkInput } from "./input-check.ts";
import { orderedIds } from "./ordered-ids.ts";
import { batches, firstTime, type ImportRun, listOf, type StagedAsset, tally, type Write } from "./run.ts";

interface AssetInput {
  filename: string;
  path?: string | null;
  content_type?: string | null;
}

interface PlannedAsset {
  id: string;
  path: string;
  filename: string;
  contentType: string;
  fileSize: number;
  file: StagedAsset;
}

/** Whether the account has the asset already, with the bytes the document's sha256 names. */
async function storedAsDocumented(
  run: ImportRun,
  stored: { id: string } | undefined,
  record: Record<string, unknown>,
): Promise<boolean> {
  if (!stored) return false;
  if (typeof record.sha256 !== "string") return true;
  return record.sha256 === (await sha256Of(await run.ctx.storage.read(run.scope.accountId, stored.id)));
}

export async function planAssets(run: ImportRun, section: unknown): Promise<Write> {
  const { ctx, scope, index } = run;
  const creates: PlannedAsset[] = [];
  const replaced: PlannedAsset[] = [];
  const seen = new Set<string>();
  const missing: string[] = [];
  const records = listOf(run, ["assets"], section);
  const ids = orderedIds(prefixes.asset, records.length);
  for (const [position, { at, record }] of records.entries()) {
    const input = checkInput<AssetInput>("AssetCreateInput", record, at, run.problems);
    if (!input) continue;
    const name = { path: input.path ?? "", filename: input.filename };
    const key = assetReference(name);
    if (!firstTime(run, seen, key, at)) continue;
    const file = run.files.get(key);
    const stored = index.assets.get(key);
    if (!file) {
      if (run.archived && !(await storedAsDocumented(run, stored, record)))
        run.problems.add(
          at,
          `the bytes of assets/${key} are not in the archive (the document gives their size and sha256)`,
        );
      else if (stored) tally(run, "assets", "unchanged");
      else missing.push(key);
      continue;
    }
    if (typeof record.sha256 === "string" && record.sha256 !== file.sha256)
      run.problems.add([...at, "sha256"], `does not match the bytes of assets/${key} in the archive`);
    if (typeof record.size === "number" && record.size !== file.size)
      run.problems.add(
        [...at, "size"],
        `is ${record.size}, but assets/${key} in the archive has ${file.size} bytes`,
      );
    const contentType = contentTypeFor(name.filename, input.content_type);
    const mismatch = signatureProblem(
      contentType,
      await ctx.storage.stagedHead(file.staged, SIGNATURE_BYTES),
    );
    if (mismatch) run.problems.add([...at, "content_type"], mismatch);
    const planned = {
      ...name,
      contentType,
      fileSize: file.size,
      file,
      id: stored?.id ?? (ids[position] as string),
    };
    if (!stored) {
      creates.push(planned);
      index.assets.set(key, planned);
      tally(run, "assets", "created");
      continue;
    }
    const same =
      stored.contentType === contentType &&
      file.sha256 === (await sha256Of(await ctx.storage.read(scope.accountId, stored.id)));
    if (same) tally(run, "assets", "unchanged");
    else {
      replaced.push(planned);
      tally(run, "assets", "updated");
    }
  }
  if (missing.length > 0)
    run.report.skipped.push(
      `assets: ${missing.length} not in this account were not created, their bytes coming only in a .tar.gz (${missing.slice(0, 5).join(", ")}${missing.length > 5 ? ", …" : ""})`,
    );
  for (const key of run.files.keys())
    if (!seen.has(key)) run.report.skipped.push(`assets/${key} in the archive: not in the document's assets`);
  return async (tx) => {
    const { now } = run;
    for (const asset of creates) {
      await ctx.storage.commit(asset.file.staged, scope.accountId, asset.id);
      run.committed.add(asset.file.staged);
      run.undo.push(() => ctx.storage.remove(scope.accountId, asset.id));
    }
    for (const chunk of batches(creates)) {
      await tx.asset.createMany({
        data: chunk.map(({ file: _file, ...row }) => ({ ...scope, ...row, createdAt: now, updatedAt: now })),
      });
    }
    for (const { id, contentType, fileSize, file } of replaced) {
      await tx.asset.update({ where: { id }, data: { contentType, fileSize, updatedAt: now } });
      run.afterCommit.push(async () => {
        await ctx.storage.commit(file.staged, scope.accountId, id);
        run.committed.add(file.staged);
      });
    }
  };
}
