// A GraphQL document may hold several mutations, run one after another. What a request keeps is read
// under the moment it took once (context.ts), so after each root mutation the request marks its accounts
// changed (where the database tells this process of its writes only at commit) and reads afresh: a
// blueprint changed by the first mutation is the one the next mutation's entry is checked against, and the
// client's next request sees its write, here and (once `writesHeard` resolves) through any other process.
import SchemaBuilder, { BasePlugin, type PothosOutputFieldConfig, type SchemaTypes } from "@pothos/core";
import type { GraphQLFieldResolver } from "graphql";
import type { Context } from "./context.ts";

const pluginName = "freshAfterWrites";

/**
 * The root mutations that may write a table whose reads are kept per table (context.ts `keep` with
 * `tables`: tokens, accounts, collections, blueprints, webhooks, and the site's globals, navigations,
 * templates and forms); the others write content only. A new
 * mutation of those tables must be named here, or its own process may keep a lookup until its change
 * is heard (milliseconds, on PostgreSQL).
 */
const writesLookups =
  /^(collection|blueprint|webhook|siteImport|trash|account|token|global|navigation|template|form)/;

/**
 * A delete may cascade into other tables (an entry's menu links lose it): it changes the whole account,
 * as the database's own triggers and notifications count a delete (changes.ts). On PostgreSQL this
 * process hears its own writes only once their notification arrives, and a request reads what follows
 * its write under these marks alone (context.ts `stamped`).
 */
const deletes = /Delete$/;

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
        const name = fieldConfig.name;
        (context as Context).dataChanged(writesLookups.test(name) || deletes.test(name));
        // Answered once the other server processes have heard it: read through any of them at once.
        await (context as Context).writesHeard();
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
