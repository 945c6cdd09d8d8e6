// The accounts the caller's token may use (the tool interface's `accounts_list`): a token belongs to one
// account, so the list holds that one, with what the token may do there. An assistant learns from it
// which site it works on (name, domain) before it changes anything.
import { builder } from "../builder.ts";
import { ApiError } from "../errors.ts";

interface TokenAccount {
  id: string;
  name: string;
  domain: string;
  scope: string;
  createdAt: Date;
}

const TokenAccountRef = builder.objectRef<TokenAccount>("TokenAccount").implement({
  description: "An account the token may use.",
  fields: (t) => ({
    id: t.exposeID("id", { description: "The account's ID (acct_...)." }),
    name: t.exposeString("name"),
    domain: t.exposeString("domain", { description: "The host its public site is served at." }),
    scope: t.exposeString("scope", { description: "What the token may do there: read, or write." }),
    created_at: t.expose("createdAt", { type: "DateTime" }),
  }),
});

const TokenAccountList = builder.objectRef<{ data: TokenAccount[] }>("TokenAccountList").implement({
  fields: (t) => ({ data: t.field({ type: [TokenAccountRef], resolve: (list) => list.data }) }),
});

builder.queryField("tokenAccounts", (t) =>
  t.field({
    type: TokenAccountList,
    description: "The accounts the bearer token may use: the one it belongs to.",
    resolve: async (_root, _args, ctx) => {
      const viewer = await ctx.viewer();
      if (!viewer) throw new ApiError(401, "Missing or invalid bearer token");
      const account = await ctx.db.account.findUnique({
        where: { id: viewer.accountId },
        select: { id: true, name: true, domain: true, createdAt: true },
      });
      return { data: account ? [{ ...account, scope: viewer.scope }] : [] };
    },
  }),
);
