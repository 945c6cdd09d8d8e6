// A tool's arguments may be named otherwise than the operation's (`collection` for `collection_id`,
// `new_handle` for the input's `handle`): the operation's error details are said in the tool's names,
// so that an assistant knows which of its arguments to mend.
import { ApiError, toApiError } from "../schema/errors.ts";

/** Runs `work`; an error's detail paths that start with a key of `names` start with its value instead. */
export async function inToolNames<T>(names: Record<string, string>, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const apiError = toApiError(error);
    if (apiError.status >= 500 || apiError.details.length === 0) throw error;
    const details = apiError.details.map(({ path, message }) => {
      const [head = "", rest = ""] = /^([^.[]*)(.*)$/s.exec(path)?.slice(1) ?? [];
      return { path: Object.hasOwn(names, head) ? `${names[head]}${rest}` : path, message };
    });
    throw new ApiError(apiError.status, apiError.message, details);
  }
}
