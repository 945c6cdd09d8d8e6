// themeValidate: the account's site checked as a whole, for what keeps its theme from showing the content
// (theme-checks.ts): the hosted service's `theme_validate`. Where templateValidate checks one Liquid
// source, this checks how templates, collections and entries fit together.
import { accountScope } from "../access.ts";
import { accountArg } from "../args.ts";
import { builder } from "../builder.ts";
import { CHECK_LIMIT, type ThemeCheck, type ThemeIssue, themeIssues } from "./theme-checks.ts";

const ThemeCheckEnum = builder.enumType("ThemeCheck", {
  values: {
    missing_template: { description: "A template, layout or the fallback `index` named but missing." },
    orphaned_entry: { description: "An entry whose routing needs a parent entry it does not have." },
    missing_published_at: { description: "An entry without the date its date routing uses." },
    missing_index_config: { description: "`index_routing` without `index_template_handle`, or the reverse." },
    duplicate_content_path: { description: "Pages (entries, index pages) sharing one path." },
  } satisfies Record<ThemeCheck, unknown>,
});

const ThemeIssueRef = builder.objectRef<ThemeIssue>("ThemeIssue").implement({
  description: "One problem, with the records it concerns.",
  fields: (t) => ({
    check: t.field({ type: ThemeCheckEnum, resolve: (issue) => issue.check }),
    message: t.exposeString("message"),
    collection_handle: t.string({ nullable: true, resolve: (issue) => issue.collection_handle ?? null }),
    entry_handle: t.string({ nullable: true, resolve: (issue) => issue.entry_handle ?? null }),
    template_handle: t.string({ nullable: true, resolve: (issue) => issue.template_handle ?? null }),
    content_path: t.string({ nullable: true, resolve: (issue) => issue.content_path ?? null }),
  }),
});

const ThemeValidationRef = builder
  .objectRef<{ valid: boolean; issues: ThemeIssue[] }>("ThemeValidation")
  .implement({
    fields: (t) => ({
      valid: t.exposeBoolean("valid", { description: "True when no check found anything." }),
      issues: t.field({
        type: [ThemeIssueRef],
        description: `Every problem found, by check (at most ${CHECK_LIMIT} entries named per check).`,
        resolve: (validation) => validation.issues,
      }),
    }),
  });

builder.queryField("themeValidate", (t) =>
  t.field({
    type: ThemeValidationRef,
    description:
      "Checks the site as a whole: missing templates, orphaned entries, entries without the published_at " +
      "their date routing needs, half-configured index pages and pages sharing a path.",
    args: { account_id: accountArg(t.arg) },
    resolve: async (_root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id, "read");
      const issues = await themeIssues(ctx, scope);
      return { valid: issues.length === 0, issues };
    },
  }),
);
