// Who may call comes before what was sent, over GraphQL as over REST: for every root field that takes an
// `account_id`, `accountScope` (the one access rule, access.ts) runs before the arguments are validated, so
// another account's token or a read-scoped token on a mutation gets its 403 whatever the input holds, and
// a validation error never tells such a caller anything. The resolvers still take their where-filter from
// `accountScope` (cached per request, so the second call costs nothing).
import SchemaBuilder, { BasePlugin, type PothosOutputFieldConfig, type SchemaTypes } from "@pothos/core";
import type { GraphQLFieldResolver } from "graphql";
import { accountScope } from "./access.ts";
import type { Context } from "./context.ts";

const pluginName = "accessFirst";

export class AccessFirstPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override wrapArgMappers(
    resolver: GraphQLFieldResolver<unknown, Types["Context"], object>,
    fieldConfig: PothosOutputFieldConfig<Types>,
  ): GraphQLFieldResolver<unknown, Types["Context"], object> {
    const root = fieldConfig.parentType;
    if ((root !== "Query" && root !== "Mutation") || !("account_id" in fieldConfig.args)) return resolver;
    const access = root === "Mutation" ? "write" : "read";
    return async (parent, args, context, info) => {
      const accountId = (args as { account_id?: unknown }).account_id;
      await accountScope(context as Context, String(accountId ?? ""), access);
      return resolver(parent, args, context, info);
    };
  }
}

declare global {
  export namespace PothosSchemaTypes {
    export interface Plugins<Types extends SchemaTypes> {
      accessFirst: AccessFirstPlugin<Types>;
    }
  }
}

SchemaBuilder.registerPlugin(pluginName, AccessFirstPlugin);

export default pluginName;
