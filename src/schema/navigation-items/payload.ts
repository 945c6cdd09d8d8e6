// Create answers whether it created or updated the same item (rule 2), so REST can say 201 or 200.
import { builder } from "../builder.ts";
import type { ItemJson } from "./tree.ts";

export const NavigationItemCreatePayload = builder
  .objectRef<{ created: boolean; item: ItemJson }>("NavigationItemCreatePayload")
  .implement({
    fields: (t) => ({
      created: t.exposeBoolean("created", {
        description: "False when an item with the same title and url (or linked entry) was updated.",
      }),
      item: t.expose("item", { type: "JSON", description: "The item, as the /items endpoints answer it." }),
    }),
  });
