// A revision as the API returns it. Lists give each revision without its state (they index a history;
// one revision's state can be a whole entry); one revision gives its state: the record under the API's
// field names with blueprint values as stored, under `values` (REST does not spread them: the state is
// a snapshot, not the live record).
import type { ArgBuilder } from "@pothos/core";
import { z } from "zod";
import { builder } from "../builder.ts";
import { listType } from "../pagination.ts";

// biome-ignore lint/suspicious/noExplicitAny: the builder's own type parameter
type Args = ArgBuilder<any>;

export interface RevisionRow {
  number: number;
  createdAt: Date;
  tokenId: string | null;
}

export const revisionSelect = { number: true, createdAt: true, tokenId: true } as const;

export const RevisionSummaryRef = builder.objectRef<RevisionRow>("RevisionSummary").implement({
  description: "One saved state of a record, without the state itself.",
  fields: (t) => ({
    number: t.exposeInt("number", { description: "Counts up per record from 1." }),
    created_at: t.expose("createdAt", { type: "DateTime" }),
    token_id: t.exposeString("tokenId", {
      nullable: true,
      description: "The ID of the API token that made the change (never its secret).",
    }),
  }),
});

export const RevisionRef = builder.objectRef<RevisionRow & { state: unknown }>("Revision").implement({
  description: "One saved state of a record.",
  fields: (t) => ({
    number: t.exposeInt("number", { description: "Counts up per record from 1." }),
    created_at: t.expose("createdAt", { type: "DateTime" }),
    token_id: t.exposeString("tokenId", {
      nullable: true,
      description: "The ID of the API token that made the change (never its secret).",
    }),
    state: t.field({
      type: "JSON",
      description:
        "The record as it was: its fields by API name and its blueprint values as stored, under `values`.",
      resolve: (revision) => revision.state,
    }),
  }),
});

export const RevisionList = listType("Revision", RevisionSummaryRef);

const revisionNumber = z.number().int().min(1, "must be 1 or more");

export const revisionArg = (arg: Args) =>
  arg.int({ required: true, description: "The revision's number.", validate: revisionNumber });
