// Arguments shared by the account-scoped operations. Their names are the REST path and query
// parameter names, which is how sofa binds `/v1/accounts/:account_id/...` to them.
import type { ArgBuilder } from "@pothos/core";
import { pageSchema } from "./pagination.ts";

// biome-ignore lint/suspicious/noExplicitAny: the builder's own type parameter
type Args = ArgBuilder<any>;

export const accountArg = (arg: Args) =>
  arg.id({ required: true, description: "The account's prefix ID (acct_...)." });

export const idArg = (arg: Args, what: string) =>
  arg.id({ required: true, description: `The ${what}'s prefix ID or its handle.` });

export const listArgs = (arg: Args) => ({
  account_id: accountArg(arg),
  handle: arg.string({ description: "Only the record whose handle equals this." }),
  page: arg.int({ description: "Page number, from 1.", validate: pageSchema }),
});
