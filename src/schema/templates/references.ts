// Collections and entries name templates by handle; an unknown handle is a 422 on that field.
import type { AccountScope } from "../access.ts";
import type { Context } from "../context.ts";
import type { Problems } from "../errors.ts";

/** Checks each given (field path -> template handle) pair; null and undefined mean "not set". */
export async function checkTemplateHandles(
  ctx: Context,
  scope: AccountScope,
  references: Record<string, string | null | undefined>,
  problems: Problems,
): Promise<void> {
  const wanted = Object.entries(references).filter(
    (pair): pair is [string, string] => typeof pair[1] === "string",
  );
  if (wanted.length === 0) return;
  const found = await ctx.db.template.findMany({
    where: { ...scope, handle: { in: wanted.map(([, handle]) => handle) } },
    select: { handle: true },
  });
  const known = new Set(found.map((template) => template.handle));
  for (const [path, handle] of wanted) {
    if (!known.has(handle)) problems.add(path, `no template with handle '${handle}'`);
  }
}
