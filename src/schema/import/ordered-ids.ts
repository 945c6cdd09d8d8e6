// New records of one kind get IDs that sort in file order: lists ordered by (createdAt, id) then show
// them in the order the file has them, as the source did, although the import gives them one moment.
import { newId } from "../ids.ts";

export function orderedIds(prefix: string, count: number): string[] {
  return Array.from({ length: count }, () => newId(prefix)).sort();
}
