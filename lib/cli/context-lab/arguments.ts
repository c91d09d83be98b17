import { MarkedError } from "@/lib/context/marked-error";
import type { Environment } from "./home";

/** What the command line asked for. */
export type CliCommand =
  | { kind: "help"; topic: "start" | "record" }
  | { kind: "version" }
  | { kind: "start"; port: PortChoice; open: boolean }
  | { kind: "record"; port: PortChoice; label: string | null; command: string[] }
  | { kind: "stop" };

/** The port asked for (`--port`, else `PORT`), or the default with its free successors (PK-4). */
export type PortChoice = { explicit: true; port: number } | { explicit: false; port: number };

export const DEFAULT_PORT = 3000;

/** A command line the command cannot run: the message says which argument and what it wants. */
export class CliUsageError extends MarkedError {
  static override readonly marker: symbol = Symbol.for("context-lab.cli.usage");

  constructor(message: string) {
    super(message);
    this.name = "CliUsageError";
  }
}

function parsePort(value: string | undefined, where: string): number {
  const port = Number(value);
  if (!value || !/^\d+$/.test(value) || port < 1 || port > 65_535) throw new CliUsageError(`${where}: expected a port from 1 to 65535, got "${value ?? ""}"`);
  return port;
}

/** Splits `--name=value` and `--name value`; `value` is null for a flag with no value. */
function readOption(argv: string[], index: number): { name: string; value: string | null; next: number } {
  const argument = argv[index];
  const equals = argument.indexOf("=");
  if (equals > 0) return { name: argument.slice(0, equals), value: argument.slice(equals + 1), next: index + 1 };
  return { name: argument, value: null, next: index + 1 };
}

/** Parses `context-lab [record|stop] [options] [-- command …]` (PK-1). */
export function parseArguments(argv: string[], env: Environment): CliCommand {
  const [first, ...rest] = argv;
  const subcommand = first === "record" || first === "stop" || first === "start" ? first : "start";
  const args = subcommand === "start" && first !== "start" ? argv : rest;
  let port: PortChoice = env.PORT?.trim() ? { explicit: true, port: parsePort(env.PORT.trim(), "PORT") } : { explicit: false, port: DEFAULT_PORT };
  let open = false;
  let label: string | null = null;
  let index = 0;
  while (index < args.length) {
    const argument = args[index];
    if (argument === "--") {
      index += 1;
      break;
    }
    if (!argument.startsWith("-")) break;
    const option = readOption(args, index);
    const takeValue = (): string => {
      if (option.value !== null) return option.value;
      const value = args[option.next];
      if (value === undefined || value.startsWith("--")) throw new CliUsageError(`${option.name} needs a value`);
      option.next += 1;
      return value;
    };
    if (option.name === "--help" || option.name === "-h") return { kind: "help", topic: subcommand === "record" ? "record" : "start" };
    if (option.name === "--version" || option.name === "-v") return { kind: "version" };
    if (option.name === "--port" || option.name === "-p") port = { explicit: true, port: parsePort(takeValue(), option.name) };
    else if (option.name === "--open" && subcommand === "start") open = true;
    else if (option.name === "--label" && subcommand === "record") label = takeValue();
    else throw new CliUsageError(`unknown option ${option.name}${subcommand === "start" ? "" : ` for ${subcommand}`} (context-lab --help lists them)`);
    index = option.next;
  }
  const positional = args.slice(index);
  if (subcommand === "record") {
    if (positional.length === 0) throw new CliUsageError("record needs the agent's command: context-lab record -- <command> [arguments…]");
    if (label !== null && !label.trim()) throw new CliUsageError("--label must not be empty");
    return { kind: "record", port, label, command: positional };
  }
  if (positional.length > 0) throw new CliUsageError(`unexpected argument "${positional[0]}" (context-lab --help lists the commands)`);
  return subcommand === "stop" ? { kind: "stop" } : { kind: "start", port, open };
}
