// What clients may write on an asset. An upload names its bytes either as base64 `data` (JSON) or as
// `upload`, the reference of a file the REST layer staged from a multipart body.
import { z } from "zod";
import { builder } from "../builder.ts";
import { contentTypeSchema } from "./content-types.ts";
import { filenameSchema, pathSchema } from "./names.ts";

export const AssetCreateInput = builder.inputType("AssetCreateInput", {
  fields: (t) => ({
    filename: t.string({ required: true, validate: filenameSchema }),
    content_type: t.string({
      validate: contentTypeSchema,
      description: "Defaults to the type the filename extension names (application/octet-stream if none).",
    }),
    path: t.string({ validate: pathSchema, description: "Folder path; empty or omitted for the root." }),
    data: t.string({
      description: "The file's bytes in base64 (standard or URL-safe alphabet; a data: URL is accepted).",
    }),
    upload: t.string({
      description: "Reference of a staged upload (set by the REST layer from a multipart body).",
      validate: z.string().regex(/^[0-9a-f]{32}$/, "is not a staged upload"),
    }),
  }),
});

export const AssetUpdateInput = builder.inputType("AssetUpdateInput", {
  description: "A rename or move: the file's bytes stay as they are.",
  fields: (t) => ({
    filename: t.string({ validate: filenameSchema }),
    path: t.string({ validate: pathSchema }),
  }),
});
