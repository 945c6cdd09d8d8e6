// How one record names another in the document: by handles and paths, never by ID, so that the file
// means the same thing in any account on any server.

/** An entry, as entity values are sent to the API: `collection_handle:entry_handle`. */
export function entryReference(collectionHandle: string, entryHandle: string): string {
  return `${collectionHandle}:${entryHandle}`;
}

/** An asset: `folder/filename`, or the filename alone at the root (as an image value may be sent). */
export function assetReference(asset: { path: string; filename: string }): string {
  return asset.path === "" ? asset.filename : `${asset.path}/${asset.filename}`;
}

/** `in` lists are cut to this length: the databases bound a statement's parameters. */
export const IN_LIST_MAX = 1000;

export function chunks<T>(values: readonly T[], size = IN_LIST_MAX): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < values.length; start += size) result.push(values.slice(start, start + size));
  return result;
}
