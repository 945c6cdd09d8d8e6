// After every root mutation, whatever it is named and whatever it wrote, the request reads its generations
// (and token and Host) again before it reads anything more: a later operation of the same document, or a
// page rendered after a form submission, sees the write. Which kept answers a write ends is the
// database's to say (its triggers bump the generations), so no mutation needs to be listed anywhere.
import SchemaBuilder, { BasePlugin, type PothosOutputFieldConfig, type SchemaTypes } from "@pothos/core";
import type { GraphQLFieldResolver } from "graphql";
import type { Context } from "./context.ts";

const pluginName = "writeHook";

export class WriteHookPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override wrapResolve(
    resolver: GraphQLFieldResolver<unknown, Types["Context"], object>,
    fieldConfig: PothosOutputFieldConfig<Types>,
  ): GraphQLFieldResolver<unknown, Types["Context"], object> {
    if (fieldConfig.parentType !== "Mutation") return resolver;
    return async (parent, args, context, info) => {
      try {
        return await resolver(parent, args, context, info);
      } finally {
        (context as Context).refresh();
      }
    };
  }
}

declare global {
  export namespace PothosSchemaTypes {
    export interface Plugins<Types extends SchemaTypes> {
      writeHook: WriteHookPlugin<Types>;
    }
  }
}

SchemaBuilder.registerPlugin(pluginName, WriteHookPlugin);

export default pluginName;
