// What clients may write on a template. Handles may contain folders (`pages/about`); the Liquid source
// must parse.
import { z } from "zod";
import { builder } from "../builder.ts";
import { idShapeMessage } from "../handles.ts";
import { isIdOf, prefixes } from "../ids.ts";
import { liquidSyntaxError } from "./liquid.ts";
import { TemplateKindEnum } from "./type.ts";

export const TEMPLATE_MAX_BYTES = 1024 * 1024;

const handle = z
  .string()
  .max(200, "must be at most 200 characters")
  .regex(
    /^[a-z0-9][a-z0-9_-]*(\/[a-z0-9][a-z0-9_-]*)*$/,
    "may contain lowercase letters, digits, '-', '_' and '/' between folder names",
  )
  .refine((value) => !isIdOf(value, prefixes.template), idShapeMessage(prefixes.template));

const title = z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters");

/** A Liquid source no larger than a template may be. */
export const templateSource = z
  .string()
  .refine((source) => Buffer.byteLength(source) <= TEMPLATE_MAX_BYTES, "must be at most 1 MB");

const html = templateSource.superRefine((source, ctx) => {
  const error = liquidSyntaxError(source);
  if (error) ctx.addIssue({ code: "custom", message: `invalid Liquid: ${error}` });
});

export const TemplateCreateInput = builder.inputType("TemplateCreateInput", {
  fields: (t) => ({
    title: t.string({ validate: title, description: "Defaults to the handle." }),
    handle: t.string({ validate: handle, description: "Generated from the title when omitted." }),
    kind: t.field({ type: TemplateKindEnum, description: "Default `template`." }),
    html: t.string({ required: true, validate: html }),
  }),
});

export const TemplateUpdateInput = builder.inputType("TemplateUpdateInput", {
  fields: (t) => ({
    title: t.string({ validate: title }),
    handle: t.string({ validate: handle }),
    kind: t.field({ type: TemplateKindEnum }),
    html: t.string({ validate: html }),
  }),
});
