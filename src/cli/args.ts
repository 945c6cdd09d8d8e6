// The command line of `cms`: a command of two words, then its own options. Anything else is refused in
// one line before the database is touched (else a mistyped `token create --scop read` makes a write token).
import { parseArgs } from "node:util";

export class UsageError extends Error {}

export interface OptionSpec {
  type: "string" | "boolean";
  required?: boolean;
  /** Given as the argument after the command (`cms import FILE`), not as --name. */
  positional?: boolean;
}

export type Values = Record<string, string | boolean | undefined>;

export interface CommandLine {
  /** "" when the user asked for help or gave no command. */
  command: string;
  values: Values;
}

export function parseCommandLine(
  args: string[],
  commands: Record<string, Record<string, OptionSpec>>,
): CommandLine {
  const options = Object.assign({ help: { type: "boolean", short: "h" } }, ...Object.values(commands));
  const { positionals, tokens } = parseArgs({
    args,
    options,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  // A one-word command may take an argument (`import FILE`); commands of two words take none.
  const first = positionals[0] ?? "";
  const oneWord = commands[first] && Object.values(commands[first]).some((spec) => spec.positional);
  const command = oneWord ? first : positionals.slice(0, 2).join(" ");
  if (tokens.some((token) => token.kind === "option" && token.name === "help") || command === "")
    return { command: "", values: {} };
  const allowed = commands[command];
  if (!allowed)
    throw new UsageError(`unknown command '${command}'; commands: ${Object.keys(commands).join(", ")}`);
  const values: Values = {};
  for (const token of tokens) {
    if (token.kind !== "option") continue;
    const spec = allowed[token.name];
    if (!spec || spec.positional) {
      const names = Object.keys(allowed).map((name) => `--${name}`);
      throw new UsageError(
        `unknown option ${token.rawName} for '${command}'; its options: ${names.join(", ")}`,
      );
    }
    if (token.name in values) throw new UsageError(`${token.rawName} is given twice`);
    values[token.name] = optionValue(token.rawName, spec, token.value, token.inlineValue);
  }
  const rest = positionals.slice(command.split(" ").length);
  const argument = Object.entries(allowed).find(([, spec]) => spec.positional)?.[0];
  if (argument && rest.length > 0) values[argument] = rest.shift();
  // After the options: in `--scop read`, "read" is left over because --scop is unknown.
  const extra = rest[0];
  if (extra !== undefined) throw new UsageError(`unexpected argument '${extra}' after '${command}'`);
  for (const [name, spec] of Object.entries(allowed)) {
    if (spec.required && values[name] === undefined)
      throw new UsageError(`missing ${spec.positional ? name.toUpperCase() : `--${name}`} for '${command}'`);
  }
  return { command, values };
}

function optionValue(
  rawName: string,
  spec: OptionSpec,
  value: string | undefined,
  inline: boolean | undefined,
): string | boolean {
  if (spec.type === "boolean") {
    if (value !== undefined) throw new UsageError(`${rawName} takes no value`);
    return true;
  }
  // `--scope --json`: the next option is not the value (`--scope=-x` still says so on purpose).
  if (value === undefined || (!inline && value.startsWith("-")) || value.trim() === "")
    throw new UsageError(`${rawName} needs a value`);
  return value;
}
