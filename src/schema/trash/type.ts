// The trash as the API answers it: an item says what was deleted and when; a restore answers the record as
// its own GET does (the union of the six record types, told apart by their ID prefix).
import { AssetRef } from "../assets/type.ts";
import { builder } from "../builder.ts";
import { EntryRef } from "../entries/type.ts";
import { FormRef } from "../forms/type.ts";
import { GlobalRef } from "../globals/type.ts";
import { prefixes } from "../ids.ts";
import { NavigationWithItemsRef } from "../navigations/type.ts";
import { listType } from "../pagination.ts";
import { TemplateRef } from "../templates/type.ts";
import type { TrashType } from "./store.ts";

export const TrashTypeEnum = builder.enumType("TrashType", {
  description: "What a trash item was.",
  values: ["entry", "global", "template", "navigation", "form", "asset"] as const,
});

/** An item as listed: every column but the snapshot. */
export interface TrashItemRow {
  id: string;
  recordType: string;
  recordId: string;
  handle: string;
  title: string;
  deletedAt: Date;
}

export const TrashItemRef = builder.objectRef<TrashItemRow>("TrashItem").implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    type: t.field({ type: TrashTypeEnum, resolve: (item) => item.recordType as TrashType }),
    record_id: t.exposeID("recordId", { description: "The deleted record's ID, which a restore keeps." }),
    handle: t.exposeString("handle", { description: "Its handle; for an asset, path/filename." }),
    title: t.exposeString("title", { description: "Its title (a global's name, an asset's filename)." }),
    deleted_at: t.expose("deletedAt", { type: "DateTime" }),
  }),
});

export const TrashItemList = listType("TrashItem", TrashItemRef);

const recordTypes = [
  [prefixes.entry, EntryRef],
  [prefixes.global, GlobalRef],
  [prefixes.template, TemplateRef],
  [prefixes.navigation, NavigationWithItemsRef],
  [prefixes.form, FormRef],
  [prefixes.asset, AssetRef],
] as const;

export const TrashRecordRef = builder.unionType("TrashRecord", {
  description: "A restored record, as its own GET answers it.",
  types: recordTypes.map(([, ref]) => ref),
  resolveType: (record) => {
    const id = (record as { id: string }).id;
    const found = recordTypes.find(([prefix]) => id.startsWith(prefix));
    if (!found) throw new Error(`no record type for ${id}`);
    return found[1];
  },
});

export interface Restored {
  type: TrashType;
  record: { id: string };
}

export const TrashRestorePayloadRef = builder.objectRef<Restored>("TrashRestorePayload").implement({
  fields: (t) => ({
    type: t.field({ type: TrashTypeEnum, resolve: (restored) => restored.type }),
    record: t.field({ type: TrashRecordRef, resolve: (restored) => restored.record as never }),
  }),
});
