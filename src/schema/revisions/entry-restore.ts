// POST /collections/:collection_id/entries/:id/revisions/:revision/restore: the entry takes the revision's
// fields and values again through the normal update (its checks apply: a handle taken since, a template
// or referenced entry gone since, are 422s), which records a new revision. Values the entry has now and
// the revision had not are cleared. Its routing override comes back in the same write, after the check
// its own mutation makes (a path another entry has taken since is a 422 on routing_override).
import { accountScope } from "../access.ts";
import { accountArg, idArg } from "../args.ts";
import { builder } from "../builder.ts";
import type { EntryUpdate } from "../entries/inputs.ts";
import { EntryRef } from "../entries/type.ts";
import { applyEntryUpdate } from "../entries/update.ts";
import { isPlainObject } from "../entries/values.ts";
import { findRevision } from "./find.ts";
import { findEntryRecord } from "./records.ts";
import { revisionArg } from "./type.ts";

/** The update that brings an entry whose values are `current` back to `state`. */
export function entryRestoreInput(state: unknown, current: unknown): EntryUpdate {
  const saved = isPlainObject(state) ? state : {};
  const values = isPlainObject(saved.values) ? saved.values : {};
  const cleared = Object.keys(isPlainObject(current) ? current : {}).filter(
    (key) => !Object.hasOwn(values, key),
  );
  return {
    handle: saved.handle as string,
    title: saved.title as string,
    published: saved.published as boolean,
    published_at: typeof saved.published_at === "string" ? new Date(saved.published_at) : null,
    include_in_sitemap: saved.include_in_sitemap as boolean,
    position: saved.position as number,
    template_handle: (saved.template_handle as string | null) ?? null,
    layout_handle: (saved.layout_handle as string | null) ?? null,
    values: { ...Object.fromEntries(cleared.map((key) => [key, null])), ...values },
  };
}

/** The revision's routing override; undefined for a state without one (the entry's stays). */
export function restoredOverride(state: unknown): string | null | undefined {
  const saved = isPlainObject(state) ? state : {};
  if (!Object.hasOwn(saved, "routing_override")) return undefined;
  return typeof saved.routing_override === "string" ? saved.routing_override : null;
}

builder.mutationField("entryRevisionRestore", (t) =>
  t.prismaField({
    type: EntryRef,
    description: "Restores an entry to a revision (recording a new revision) and returns the entry.",
    args: {
      account_id: accountArg(t.arg),
      collection_id: idArg(t.arg, "collection"),
      id: idArg(t.arg, "entry"),
      revision: revisionArg(t.arg),
    },
    resolve: async (query, _root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id, "write");
      const { collection, entry } = await findEntryRecord(ctx, scope, args.collection_id, args.id);
      const of = { scope, recordType: "entry" as const, recordId: entry.id };
      const { state } = await findRevision(ctx, of, args.revision);
      const input = entryRestoreInput(state, entry.data);
      const routingOverride = restoredOverride(state);
      const system = { routingOverride };
      const id = await applyEntryUpdate(ctx, scope, collection, { id: entry.id }, input, system);
      return ctx.db.entry.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
);
