// `navigations_save`: a menu by handle with, when `items` is given, its whole item tree, which replaces
// the one it had (in one transaction, by the schema's navigationItemsReplace). Answers the menu as
// navigations_get does.
import type { GraphQLSchema } from "graphql";
import { rootField } from "./field-tool.ts";
import { objectSchema } from "./json-schema.ts";
import { saveTool } from "./save-tool.ts";
import type { Tool } from "./tool.ts";

export function navigationSaveTool(schema: GraphQLSchema): Tool {
  const menu = saveTool(schema, {
    name: "navigations_save",
    description: "(described below, with its items)",
    get: "Query.navigation",
    update: "Mutation.navigationUpdate",
    create: "Mutation.navigationCreate",
    payload: "navigation",
    noun: "navigation",
  });
  const replace = rootField(schema, "Mutation.navigationItemsReplace");
  const items = objectSchema(replace.args.filter((arg) => arg.name === "items")).properties;
  return {
    ...menu,
    description:
      "Create or update a menu by handle; `items` (a tree of {title, url or collection_handle + entry_handle, children}) replaces its items.",
    inputSchema: { ...menu.inputSchema, properties: { ...menu.inputSchema.properties, ...items } },
    async call(given, call) {
      const { items: tree, ...fields } = given;
      const saved = await menu.call(fields, call);
      const id = saved.structured.id;
      const where = { account_id: call.accountId };
      if (tree === undefined)
        return {
          structured: (await call.run(call.ctx, "Query.navigation", { ...where, id })) as Record<
            string,
            unknown
          >,
        };
      const replaced = await call.run(call.ctx, "Mutation.navigationItemsReplace", {
        ...where,
        navigation_id: id,
        items: tree,
      });
      return { structured: replaced as Record<string, unknown> };
    },
  };
}
