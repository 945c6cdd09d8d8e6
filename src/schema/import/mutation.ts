// siteImport: a whole site's YAML document into the account (write token), answering the import's
// report. REST's POST /v1/accounts/:account_id/import and `cms import` call importSite directly, since
// they may bring a .tar.gz with the asset files too (src/rest/import.ts).
import { accountArg } from "../args.ts";
import { builder } from "../builder.ts";
import { importSite } from "./index.ts";

builder.mutationField("siteImport", (t) =>
  t.field({
    type: "JSON",
    description:
      "Imports a whole site from a `cms-site/1` YAML document (or the hosted service's export.yaml): " +
      "creates or updates by handle, all or nothing; answers what was created, updated and left alone. " +
      "With `dry_run`, only checks and reports.",
    args: {
      account_id: accountArg(t.arg),
      document: t.arg.string({ required: true, description: "The YAML document's text." }),
      dry_run: t.arg.boolean({ description: "Check and report only; nothing is written." }),
    },
    resolve: (_root, args, ctx) =>
      importSite(ctx, args.account_id, { document: args.document }, { dryRun: args.dry_run ?? false }),
  }),
);
