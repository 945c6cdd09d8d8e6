// The Pothos builder: plugins and configuration only. Types and operations live in their modules.
import SchemaBuilder from "@pothos/core";
import PrismaPlugin from "@pothos/plugin-prisma";
import ValidationPlugin from "@pothos/plugin-validation";
import type PrismaTypes from "../generated/pothos-types.ts";
import { getDatamodel } from "../generated/pothos-types.ts";
import AccessFirstPlugin from "./access-first.ts";
import type { Context } from "./context.ts";
import { validationFailure } from "./validation.ts";
import WriteHookPlugin from "./write-hook.ts";

export const builder = new SchemaBuilder<{
  PrismaTypes: PrismaTypes;
  Context: Context;
  DefaultFieldNullability: false;
  Scalars: {
    ID: { Input: string; Output: string };
    JSON: { Input: unknown; Output: unknown };
    DateTime: { Input: Date; Output: Date };
  };
}>({
  // accessFirst before validation: its wrapper runs outside (before) the argument validation.
  plugins: [WriteHookPlugin, AccessFirstPlugin, PrismaPlugin, ValidationPlugin],
  defaultFieldNullability: false,
  prisma: {
    client: (ctx) => ctx.db,
    dmmf: getDatamodel(),
    onUnusedQuery: null,
  },
  validation: { validationError: validationFailure },
});

builder.queryType({});
builder.mutationType({});
