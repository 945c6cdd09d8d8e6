// The one logger of the server and the CLI (pino): a JSON line per event, with `level` as its name
// ("info", "warn", "error"), `time` as an ISO date and `msg`. Never headers, query strings or bodies, so
// never a token. The server logs on stdout; the CLI on stderr, because its stdout is the command's
// answer (`--json`) or, under `cms mcp`, the protocol.
import pino from "pino";

export type LogLevel = "debug" | "info" | "warn" | "error" | "fatal";

/** An event: its level and message, and the fields that describe it (snake_case). */
export type LogLine = { level: LogLevel; msg: string } & Record<string, unknown>;

/** How parts that log are handed the logger: one call per event. */
export type Log = (line: LogLine) => void;

// The server's lines are written in the background: a write system call per request line cost about 2 % of
// an uncached read. Lines that come while one is being written go out together with the next. pino flushes
// what is left, synchronously, when the process exits. The CLI writes synchronously: its stderr is often a
// terminal, read line by line as the command runs.
const destinations = {
  stdout: pino.destination({ fd: 1, sync: false }),
  stderr: pino.destination({ fd: 2, sync: true }),
};
let destination = destinations.stdout;

export const logger = pino(
  {
    // Lines of this server's shape: no pid nor hostname, the level's name rather than its number.
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  },
  // Chosen once by the entry point, before anything is logged (logToStderr).
  { write: (line: string) => destination.write(line) },
);

/** For a process whose stdout is not a log: the CLI. */
export function logToStderr(): void {
  destination = destinations.stderr;
}

// `msg` leads the fields: the line reads "request", then what it was about.
export const log: Log = ({ level, ...fields }) => logger[level](fields);
