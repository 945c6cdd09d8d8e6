// Collections and entries name templates by handle: one the file holds or the account has. Said as
// checkTemplateHandles says it, at the record's field.
import type { Path } from "./document.ts";
import type { ImportRun } from "./run.ts";

export function checkTemplateRefs(
  run: ImportRun,
  at: Path,
  references: Record<string, string | null | undefined>,
): void {
  for (const [field, handle] of Object.entries(references)) {
    if (typeof handle === "string" && !run.index.templates.has(handle))
      run.problems.add([...at, field], `no template with handle '${handle}'`);
  }
}
