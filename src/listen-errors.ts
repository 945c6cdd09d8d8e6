// Why the server could not listen, naming the setting to change (PORT or HOST).
import type { Config } from "./config.ts";
import { oneLine, SetupError } from "./setup-errors.ts";

export function listenProblem(error: Error, { port, host }: Pick<Config, "port" | "host">): SetupError {
  switch ((error as NodeJS.ErrnoException).code) {
    case "EADDRINUSE":
      return new SetupError(
        `PORT: ${port} is already in use on ${host}; stop what uses it or set another PORT`,
      );
    case "EACCES":
      return new SetupError(`PORT: ${port} needs more privileges on ${host} (ports below 1024 usually do)`);
    case "EADDRNOTAVAIL":
      return new SetupError(`HOST: ${host} is not an address of this machine`);
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return new SetupError(`HOST: ${host} is not a known host name`);
    default:
      return new SetupError(`PORT, HOST: cannot listen on ${host}:${port} (${oneLine(error)})`);
  }
}
