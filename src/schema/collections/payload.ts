// Create-by-handle answers whether it created or updated, so REST can say 201 or 200.
import type { Collection } from "../../generated/sqlite/client.ts";
import { builder } from "../builder.ts";
import { CollectionRef } from "./type.ts";

export const CollectionCreatePayload = builder
  .objectRef<{ created: boolean; collection: Collection }>("CollectionCreatePayload")
  .implement({
    fields: (t) => ({
      created: t.exposeBoolean("created", { description: "False when the handle existed and was updated." }),
      collection: t.field({ type: CollectionRef, resolve: (payload) => payload.collection }),
    }),
  });
