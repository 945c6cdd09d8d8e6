// A GraphQL document may hold several mutations, run one after another. What a request keeps is keyed by
// the data generation it reads once (context.ts); on PostgreSQL that one reading also gives the version of
// the lookup tables. So after each root mutation the request reads the generation afresh: a blueprint
// changed by the first mutation is the one the next mutation's entry is checked against.
import SchemaBuilder, { BasePlugin, type PothosOutputFieldConfig, type SchemaTypes } from "@pothos/core";
import type { GraphQLFieldResolver } from "graphql";
import type { Context } from "./context.ts";

const pluginName = "freshAfterWrites";

export class FreshAfterWritesPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override wrapResolve(
    resolver: GraphQLFieldResolver<unknown, Types["Context"], object>,
    fieldConfig: PothosOutputFieldConfig<Types>,
  ): GraphQLFieldResolver<unknown, Types["Context"], object> {
    if (fieldConfig.parentType !== "Mutation") return resolver;
    return async (parent, args, context, info) => {
      try {
        return await resolver(parent, args, context, info);
      } finally {
        (context as Context).dataChanged();
      }
    };
  }
}

declare global {
  export namespace PothosSchemaTypes {
    export interface Plugins<Types extends SchemaTypes> {
      freshAfterWrites: FreshAfterWritesPlugin<Types>;
    }
  }
}

SchemaBuilder.registerPlugin(pluginName, FreshAfterWritesPlugin);

export default pluginName;
