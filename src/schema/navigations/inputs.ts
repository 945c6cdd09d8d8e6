// What clients may write on a navigation: `title` and `handle`, both required on create.
import { z } from "zod";
import { builder } from "../builder.ts";
import { handleSchema } from "../handles.ts";
import { prefixes } from "../ids.ts";

const title = z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters");

export const NavigationCreateInput = builder.inputType("NavigationCreateInput", {
  fields: (t) => ({
    title: t.string({ required: true, validate: title }),
    handle: t.string({
      required: true,
      validate: handleSchema(prefixes.navigation),
      description: "Unique in the account; templates reach the menu as `navigation.<handle>`.",
    }),
  }),
});

export const NavigationUpdateInput = builder.inputType("NavigationUpdateInput", {
  fields: (t) => ({
    title: t.string({ validate: title }),
    handle: t.string({ validate: handleSchema(prefixes.navigation) }),
  }),
});
