import type { AppLayout } from "./layout";

/** What a subcommand runs with: injected so tests run them in-process with their own environment and output. */
export interface CliContext {
  /** The process's environment (what spawned processes inherit). */
  env: NodeJS.ProcessEnv;
  cwd: string;
  layout: AppLayout;
  /** A line for the person at the terminal (stdout for `start`, stderr for `record`, whose stdout is the agent's). */
  print(line: string): void;
}
