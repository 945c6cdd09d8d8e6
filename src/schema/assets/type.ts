// The Asset as the API returns it (content-api.md, "Asset").
import { builder } from "../builder.ts";
import { assetUrl } from "./names.ts";

export const AssetRef = builder.prismaObject("Asset", {
  fields: (t) => ({
    id: t.exposeID("id"),
    filename: t.exposeString("filename"),
    content_type: t.exposeString("contentType"),
    path: t.exposeString("path", { description: "The folder; empty at the root." }),
    url: t.string({
      description: "Where the account's site serves the file: /assets/<path>/<filename>, percent-encoded.",
      select: { path: true, filename: true },
      resolve: (asset) => assetUrl(asset),
    }),
    file_size: t.exposeInt("fileSize"),
    created_at: t.expose("createdAt", { type: "DateTime" }),
    updated_at: t.expose("updatedAt", { type: "DateTime" }),
  }),
});
