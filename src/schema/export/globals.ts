// The `globals` section: each global's name, its own blueprint's fields, and its values (references by
// handle, as in entries). A global's blueprint takes its handle from the global, so only fields are
// written.
import type { AccountScope } from "../access.ts";
import { readFields } from "../blueprints/fields.ts";
import type { Context } from "../context.ts";
import { portableFields } from "./blueprints.ts";
import { creationOrder } from "./keyset.ts";
import { portableValues } from "./portable-values.ts";
import { yamlEntry } from "./yaml-text.ts";

export async function globalsSection(ctx: Context, scope: AccountScope): Promise<string> {
  const globals = await ctx.db.global.findMany({
    where: scope,
    orderBy: creationOrder(),
    select: { handle: true, name: true, data: true, blueprint: { select: { fields: true } } },
  });
  const values = await portableValues(
    ctx,
    scope,
    globals.map((global) => ({ fields: readFields(global.blueprint.fields), data: global.data })),
  );
  return yamlEntry(
    "globals",
    globals.map((global, index) => ({
      handle: global.handle,
      name: global.name,
      fields: portableFields(global.blueprint.fields),
      values: values[index] ?? {},
    })),
  );
}
