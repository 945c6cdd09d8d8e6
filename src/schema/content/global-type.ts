// A global as frontend apps read it: its values with entity fields expanded to published entries only.
import { readFields } from "../blueprints/fields.ts";
import { builder } from "../builder.ts";
import { expandValues } from "../entries/expand.ts";
import { ownBlueprint } from "../globals/type.ts";
import { valuesOf } from "../globals/values.ts";

export const ContentGlobalRef = builder.prismaObject("Global", {
  variant: "ContentGlobal",
  fields: (t) => ({
    id: t.exposeID("id"),
    handle: t.exposeString("handle"),
    name: t.exposeString("name"),
    values: t.field({
      type: "JSON",
      description: "Values by field handle, as in PublishedEntry.values.",
      select: { accountId: true, data: true, blueprint: { select: { fields: true } } },
      resolve: (global, _args, ctx) => {
        const fields = readFields(ownBlueprint(global).fields);
        return expandValues(ctx, global.accountId, fields, valuesOf(fields, global.data), {
          publishedOnly: true,
        });
      },
    }),
    updated_at: t.expose("updatedAt", { type: "DateTime" }),
  }),
});
