// The `context-lab` command (docs/design/package.md): `npm run pack:app` bundles this file into the
// package's bin; in a checkout, `node --import tsx lib/cli/context-lab/main.ts` runs it on the repository's build.
import fs from "node:fs";
import { CliUsageError, parseArguments } from "./arguments";
import { stopBackgroundApp } from "./background";
import type { CliContext } from "./context";
import { RECORD_HELP, START_HELP } from "./help";
import { resolveDataPlace } from "./home";
import { findAppLayout } from "./layout";
import { runRecord } from "./record/record";
import { runStart } from "./start";

function write(stream: NodeJS.WriteStream): (line: string) => void {
  return (line) => stream.write(`${line}\n`);
}

/** Runs one command line; resolves to the process's exit code. */
export async function main(argv: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<number> {
  try {
    const command = parseArguments(argv, env);
    const layout = findAppLayout(import.meta.dirname);
    const context = (print: (line: string) => void): CliContext => ({ env, cwd, layout, print });
    switch (command.kind) {
      case "help":
        process.stdout.write(command.topic === "record" ? RECORD_HELP : START_HELP);
        return 0;
      case "version":
        process.stdout.write(`${layout.version}\n`);
        return 0;
      case "start":
        return await runStart(command, context(write(process.stdout)));
      case "record":
        return await runRecord(command, context(write(process.stderr)));
      case "stop": {
        const place = resolveDataPlace(env, cwd);
        const stopped = await stopBackgroundApp(place.home);
        process.stdout.write(stopped ? `context-lab: stopped the app at ${stopped.url}\n` : `context-lab: no background app of ${place.home} was running\n`);
        return 0;
      }
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`${message.startsWith("context-lab") ? message : `context-lab: ${message}`}\n`);
    return CliUsageError.isInstance(error) ? 2 : 1;
  }
}

// npm links the command (node_modules/.bin/context-lab) to this file: compare real paths.
if (process.argv[1] && fs.realpathSync(process.argv[1]) === fs.realpathSync(import.meta.filename)) {
  process.exit(await main(process.argv.slice(2), process.env, process.cwd()));
}
