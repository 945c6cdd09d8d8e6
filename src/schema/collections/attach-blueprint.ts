// The blueprint a new collection gets: `blueprint_handle` names an existing one (silently skipped when
// unknown), else an inline `blueprint` is created. A blueprint has one owner at most: a collection, or
// the global whose embedded blueprint it is.
import type { Prisma } from "../../generated/sqlite/client.ts";
import type { AccountScope } from "../access.ts";
import { defineFields, type FieldInput } from "../blueprints/fields.ts";
import type { Context } from "../context.ts";
import type { Problems } from "../errors.ts";
import { idOrHandle, requireHandleStyle } from "../handles.ts";
import { prefixes } from "../ids.ts";
import { toJson } from "../json.ts";
import type { CollectionCreate } from "./inputs.ts";

export interface BlueprintPlan {
  attach?: string;
  create?: { handle: string; title: string; fields: Prisma.InputJsonValue };
}

const ownerSelect = { id: true, collectionId: true, global: { select: { handle: true } } } as const;

/** Who owns the blueprint, in words, or undefined when it is free. */
function ownerOf(blueprint: { collectionId: string | null; global: { handle: string } | null }) {
  if (blueprint.global) return `global '${blueprint.global.handle}'`;
  if (blueprint.collectionId) return "another collection";
  return undefined;
}

/** The filter of blueprints that no collection or global owns. */
export const unowned = { collectionId: null, global: { is: null } } as const;

export async function planBlueprint(
  ctx: Context,
  scope: AccountScope,
  input: CollectionCreate,
  problems: Problems,
): Promise<BlueprintPlan | undefined> {
  if (input.blueprint_handle) {
    const existing = await ctx.db.blueprint.findFirst({
      where: { ...scope, ...idOrHandle(input.blueprint_handle, prefixes.blueprint) },
      select: ownerSelect,
    });
    const owner = existing && ownerOf(existing);
    if (owner) {
      problems.add("blueprint_handles", `blueprint '${input.blueprint_handle}' already belongs to ${owner}`);
      return undefined;
    }
    if (existing) return { attach: existing.id };
  }
  if (!input.blueprint) return undefined;
  const handle = input.blueprint.handle ?? input.handle;
  requireHandleStyle(ctx, "blueprint.handle", handle);
  const taken = await ctx.db.blueprint.findFirst({
    where: { ...scope, handle },
    select: ownerSelect,
  });
  const owner = taken && ownerOf(taken);
  if (owner) {
    problems.add("blueprint_handles", `blueprint '${handle}' already belongs to ${owner}`);
  } else if (taken) {
    problems.add("blueprint.handle", `a blueprint '${handle}' exists; attach it with blueprint_handle`);
  }
  const fields = defineFields((input.blueprint.fields ?? []) as FieldInput[]);
  return { create: { handle, title: input.blueprint.title ?? input.name, fields: toJson(fields) } };
}
