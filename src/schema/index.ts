// The schema: every module registers its types and operations on the builder when imported.
import { filterSchema } from "@graphql-tools/utils";
import { builder } from "./builder.ts";
import { recordEnumValues } from "./coercion-words.ts";
import "./scalars.ts";
import "./collections/queries.ts";
import "./collections/create.ts";
import "./collections/update.ts";
import "./collections/delete.ts";
import "./collections/feed.ts";
import "./blueprints/queries.ts";
import "./blueprints/mutations.ts";
import "./entries/queries.ts";
import "./entries/create.ts";
import "./entries/update.ts";
import "./entries/delete.ts";
import "./entries/routing-override.ts";
import "./templates/queries.ts";
import "./templates/mutations.ts";
import "./templates/validate.ts";
import "./templates/theme-validate.ts";
import "./navigations/index.ts";
import "./navigation-items/index.ts";
import "./forms/index.ts";
import "./globals/index.ts";
import "./assets/index.ts";
import "./revisions/index.ts";
import "./trash/index.ts";
import "./site/type.ts";
import "./site/preview.ts";
import "./previews/index.ts";
import "./webhooks/index.ts";
import "./content/index.ts";
import "./import/mutation.ts";
import "./accounts/token-accounts.ts";
import "./import/job-query.ts";

/**
 * Everything, for in-process use (the site renderer executes `site`, `sitePreview` and `sitePreviewLink`
 * against it).
 */
export const schema = builder.toSchema({ sortSchema: false });
recordEnumValues(schema);

/** What /graphql serves: everything but the internal site views and form submission. */
export const publicSchema = filterSchema({
  schema,
  rootFieldFilter: (operation, name) =>
    !(operation === "Query" && (name === "site" || name === "sitePreview" || name === "sitePreviewLink")) &&
    !(operation === "Mutation" && name === "siteFormSubmit"),
});
export type { Context } from "./context.ts";
export { createContext } from "./context.ts";
