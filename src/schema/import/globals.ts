// The `globals` section: each global held to globalCreate's rules, its values to the blueprint value
// rules (prepareValues, references by handle as in entries), its own blueprint's fields replaced as a
// global update replaces them. Created or updated by handle, left alone when name, fields and values
// are as stored; a created or changed global records a revision.
import { defineFields, type FieldInput, mergeFields, readFields } from "../blueprints/fields.ts";
import { Problems } from "../errors.ts";
import { blueprintHandleOf } from "../globals/handles.ts";
import { prepareValues, settleValues } from "../globals/values.ts";
import { newId, prefixes } from "../ids.ts";
import { toJson } from "../json.ts";
import { globalState } from "../revisions/state.ts";
import { resolvedValues } from "./entry-values.ts";
import { checkInput } from "./input-check.ts";
import { type Revised, recordRevisions } from "./revisions.ts";
import { firstTime, type ImportRun, listOf, sameJson, tally, type Write } from "./run.ts";

interface GlobalInput {
  name: string;
  handle?: string | null;
  fields?: FieldInput[] | null;
  values?: unknown;
}

interface PlannedGlobal {
  id: string;
  handle: string;
  name: string;
  blueprint: { id: string; handle: string; title: string; fields: ReturnType<typeof defineFields> };
  data: Record<string, unknown>;
  createdAt: Date;
  create: boolean;
}

export async function planGlobals(run: ImportRun, section: unknown): Promise<Write> {
  const { ctx, scope, index } = run;
  const stored = new Map(
    (
      await ctx.db.global.findMany({
        where: scope,
        include: { blueprint: { select: { id: true, handle: true, title: true, fields: true } } },
      })
    ).map((row) => [row.handle, row]),
  );
  const planned: PlannedGlobal[] = [];
  const seen = new Set<string>();
  for (const { at, record } of listOf(run, ["globals"], section)) {
    const input = checkInput<GlobalInput>("GlobalCreateInput", record, at, run.problems);
    if (!input) continue;
    if (!input.handle) {
      run.problems.add([...at, "handle"], "is required");
      continue;
    }
    if (!firstTime(run, seen, input.handle, at)) continue;
    const existing = stored.get(input.handle);
    const blueprintHandle = blueprintHandleOf(input.handle);
    const taken = index.blueprints.get(blueprintHandle);
    if (taken && taken.id !== existing?.blueprintId) {
      run.problems.add([...at, "handle"], `blueprint '${blueprintHandle}' exists and is not this global's`);
      continue;
    }
    const sent = (input.fields ?? []) as FieldInput[];
    const before = existing ? readFields(existing.blueprint.fields) : [];
    const fields = existing ? mergeFields(before, sent) : defineFields(sent);
    const problems = new Problems();
    const values = input.values ?? {};
    const resolved =
      typeof values === "object" && values !== null && !Array.isArray(values)
        ? resolvedValues(run, fields, values as Record<string, unknown>, undefined)
        : values;
    const changes = await prepareValues(ctx, scope, fields, resolved, problems);
    run.problems.addDetails(
      [...at, "values"],
      problems.list.map((p) => ({ ...p, path: p.path === "values" ? "" : p.path })),
    );
    if (problems.list.length > 0) continue;
    // The file is the global's whole state: its values replace the stored ones.
    const data = settleValues({}, changes, fields, fields);
    const blueprint = {
      id: existing?.blueprintId ?? newId(prefixes.blueprint),
      handle: blueprintHandle,
      title: input.name,
      fields,
    };
    if (
      existing &&
      existing.name === input.name &&
      sameJson(before, fields) &&
      sameJson(existing.data, data)
    ) {
      tally(run, "globals", "unchanged");
      continue;
    }
    planned.push({
      id: existing?.id ?? newId(prefixes.global),
      handle: input.handle,
      name: input.name,
      blueprint,
      data,
      createdAt: existing?.createdAt ?? run.now,
      create: !existing,
    });
    tally(run, "globals", existing ? "updated" : "created");
  }
  return async (tx) => {
    const { now } = run;
    const revised: Revised[] = [];
    for (const global of planned) {
      const { blueprint } = global;
      const columns = { handle: global.handle, name: global.name, data: toJson(global.data), updatedAt: now };
      if (global.create) {
        await tx.blueprint.create({
          data: { ...scope, ...blueprint, fields: toJson(blueprint.fields), createdAt: now, updatedAt: now },
        });
        await tx.global.create({
          data: { ...scope, ...columns, id: global.id, blueprintId: blueprint.id, createdAt: now },
        });
      } else {
        await tx.blueprint.update({
          where: { id: blueprint.id },
          data: { title: blueprint.title, fields: toJson(blueprint.fields), updatedAt: now },
        });
        await tx.global.update({ where: { id: global.id }, data: { ...columns, version: { increment: 1 } } });
      }
      const state = globalState({ ...global, blueprint, updatedAt: now });
      revised.push({ recordType: "global", recordId: global.id, state, created: global.create });
    }
    await recordRevisions(tx, run, revised);
  };
}
