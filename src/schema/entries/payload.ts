// Create-by-handle answers whether it created or updated, so REST can say 201 or 200.
import type { Entry } from "../../generated/sqlite/client.ts";
import { builder } from "../builder.ts";
import { EntryRef } from "./type.ts";

export const EntryCreatePayload = builder
  .objectRef<{ created: boolean; entry: Entry }>("EntryCreatePayload")
  .implement({
    fields: (t) => ({
      created: t.exposeBoolean("created", { description: "False when the handle existed and was updated." }),
      entry: t.field({ type: EntryRef, resolve: (payload) => payload.entry }),
    }),
  });
