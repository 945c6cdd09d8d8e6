// `navigation_items_save`: one item of a menu, as the hosted service saves it. With `id` the item is
// updated (only the fields given change: navigationItemUpdate); without, it is added
// (navigationItemCreate, which updates instead the item with the same title and link). Answers the item
// as navigation_items_list lists it.
import type { GraphQLSchema } from "graphql";
import { fieldTool } from "./field-tool.ts";
import { describe } from "./json-schema.ts";
import { saves, type Tool } from "./tool.ts";

const names = { navigation: "navigation_id" };
const described = { navigation: "The menu's handle (or its nav_ ID)." };

export function navigationItemSaveTool(schema: GraphQLSchema): Tool {
  const spec = { name: "navigation_items_save", description: "", names, described, annotations: saves };
  const create = fieldTool(schema, { ...spec, field: "Mutation.navigationItemCreate" });
  const update = fieldTool(schema, { ...spec, field: "Mutation.navigationItemUpdate" });
  const { id, ...properties } = update.inputSchema.properties;
  return {
    ...update,
    description:
      "Add an item to a menu, or change one by its `id`: title, url or collection_handle + entry_handle, parent_id, priority.",
    inputSchema: {
      ...update.inputSchema,
      properties: {
        navigation: properties.navigation ?? {},
        id: describe(
          { type: "string" },
          "The item's ID (ni_...) to change; without it, a new item (or the one with the same title and link).",
        ),
        ...properties,
      },
      required: ["navigation"],
    },
    async call(given, call) {
      if (given.id !== undefined && given.id !== null) return update.call(given, call);
      const { id: _id, ...fields } = given;
      const created = await create.call(fields, call);
      return { structured: created.structured.item as Record<string, unknown> };
    },
  };
}
