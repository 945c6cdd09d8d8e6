// Why a trash item cannot come back: its handle was taken since it was deleted (409 naming `handle`, the
// one answer every type shares, assets included: their handle is path and filename), or what it belongs
// to is gone (404 saying which).
import { ApiError } from "../errors.ts";
import { isUniqueViolation } from "../prisma-errors.ts";

export function handleTaken(what: string): ApiError {
  return new ApiError(409, `The ${what}'s handle has been taken since it was deleted`, [
    { path: "handle", message: `is used by another ${what} now; rename or delete that one first` },
  ]);
}

export function parentGone(what: string, parent: string): ApiError {
  return new ApiError(404, `The ${what}'s ${parent} no longer exists`);
}

/** Runs an insert; a unique violation (another writer took the handle meanwhile) is the 409. */
export async function inserting<T>(what: string, insert: () => Promise<T>): Promise<T> {
  try {
    return await insert();
  } catch (error) {
    throw isUniqueViolation(error) ? handleTaken(what) : error;
  }
}
