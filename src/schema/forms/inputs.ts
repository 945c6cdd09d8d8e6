// What clients may write on a form (content-api.md, "Form": writable fields). `notification_enabled` and
// `notification_emails` are not inputs: REST cannot set them.
import { z } from "zod";
import { builder } from "../builder.ts";
import { handleSchema } from "../handles.ts";
import { prefixes } from "../ids.ts";

const title = z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters");
const reference = z.string().min(1, "must not be empty").max(200, "must be at most 200 characters");
const redirectUrl = z
  .string()
  .max(2000, "must be at most 2000 characters")
  .regex(/^(\/(?!\/)|https?:\/\/)\S*$/, "must be a path starting with '/' or an http(s) URL")
  .nullish();
const successMessage = z.string().max(2000, "must be at most 2000 characters").nullish();

type Fields = Parameters<Parameters<typeof builder.inputType>[1]["fields"]>[0];

const settings = (t: Fields) => ({
  redirect_url: t.string({
    validate: redirectUrl,
    description: "Where the visitor goes after a successful submission; null clears it.",
  }),
  success_message: t.string({
    validate: successMessage,
    description: "Shown after success; null clears it.",
  }),
  honeypot_enabled: t.boolean({ description: "Adds a hidden honeypot input; default false." }),
  spam_check_enabled: t.boolean({ description: "Automatic spam checking; default false." }),
});

export const FormCreateInput = builder.inputType("FormCreateInput", {
  fields: (t) => ({
    title: t.string({ required: true, validate: title }),
    handle: t.string({
      validate: handleSchema(prefixes.form),
      description: "Generated from the title when omitted; unique in the account.",
    }),
    collection_handle: t.string({
      required: true,
      validate: reference,
      description: "The collection storing submissions: its handle or clctn_ ID.",
    }),
    blueprint_handle: t.string({
      required: true,
      validate: reference,
      description: "One of that collection's blueprints: its handle or blprt_ ID.",
    }),
    ...settings(t),
  }),
});

export const FormUpdateInput = builder.inputType("FormUpdateInput", {
  fields: (t) => ({
    title: t.string({ validate: title }),
    handle: t.string({ validate: handleSchema(prefixes.form) }),
    collection_handle: t.string({ validate: reference }),
    blueprint_handle: t.string({ validate: reference }),
    ...settings(t),
  }),
});

export type FormUpdate = typeof FormUpdateInput.$inferInput;
