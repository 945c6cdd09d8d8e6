// Create-by-handle answers whether it created or updated, so REST can say 201 or 200.
import type { Navigation } from "../../generated/sqlite/client.ts";
import { builder } from "../builder.ts";
import { NavigationRef } from "./type.ts";

export const NavigationCreatePayload = builder
  .objectRef<{ created: boolean; navigation: Navigation }>("NavigationCreatePayload")
  .implement({
    fields: (t) => ({
      created: t.exposeBoolean("created", { description: "False when the handle existed and was updated." }),
      navigation: t.field({ type: NavigationRef, resolve: (payload) => payload.navigation }),
    }),
  });
