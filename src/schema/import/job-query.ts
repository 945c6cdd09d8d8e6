// importJob: an import answered 202, as it runs and once it ended (jobs.ts): its status, phase and
// progress, then its report, or the error the synchronous answer would have been. A read token may ask.
import { accountArg } from "../args.ts";
import { builder } from "../builder.ts";
import { readImportJob } from "./jobs.ts";

builder.queryField("importJob", (t) =>
  t.field({
    type: "JSON",
    description:
      "An import answered 202 (POST /v1/accounts/:account_id/import with `Prefer: respond-async`, or a " +
      "large document): `status` (running, succeeded, failed), `phase` (reading, checking, writing), " +
      "`progress` {done, total} in entries, and once it ended its `report` or its `error` {status, error, details}.",
    args: {
      account_id: accountArg(t.arg),
      id: t.arg.id({ required: true, description: "The job's ID (impjb_...)." }),
    },
    resolve: (_root, args, ctx) => readImportJob(ctx, args.account_id, String(args.id)),
  }),
);
