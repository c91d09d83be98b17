import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CliUsageError, parseArguments } from "./arguments";
import { START_HELP, RECORD_HELP } from "./help";
import { resolveDataPlace } from "./home";

describe("context-lab command line", () => {
  it("[PK-1] starts by default; --port wins over PORT, which wins over 3000 and its successors", () => {
    expect(parseArguments([], {})).toEqual({ kind: "start", port: { explicit: false, port: 3000 }, open: false });
    expect(parseArguments(["--open"], { PORT: "4100" })).toEqual({ kind: "start", port: { explicit: true, port: 4100 }, open: true });
    expect(parseArguments(["--port", "4200"], { PORT: "4100" })).toMatchObject({ port: { explicit: true, port: 4200 } });
    expect(parseArguments(["start", "-p=4300"], {})).toMatchObject({ kind: "start", port: { explicit: true, port: 4300 } });
    expect(parseArguments(["stop"], {})).toEqual({ kind: "stop" });
    expect(parseArguments(["record", "--help"], {})).toEqual({ kind: "help", topic: "record" });
  });

  it("[PK-1] record takes its options before the command, and everything after -- (or the first word) is the command's", () => {
    expect(parseArguments(["record", "--label", "bot", "--", "node", "agent.mjs", "--port", "9"], {})).toEqual({
      kind: "record",
      port: { explicit: false, port: 3000 },
      label: "bot",
      command: ["node", "agent.mjs", "--port", "9"],
    });
    expect(parseArguments(["record", "-p", "4000", "claude", "-p", "hi"], {})).toMatchObject({
      port: { port: 4000 },
      label: null,
      command: ["claude", "-p", "hi"],
    });
  });

  it("[PK-1] refuses a wrong command line, naming the argument", () => {
    const refusal = (argv: string[], env = {}) => {
      try {
        parseArguments(argv, env);
      } catch (error) {
        expect(CliUsageError.isInstance(error)).toBe(true);
        return (error as Error).message;
      }
      return "accepted";
    };
    expect(refusal(["--port", "70000"])).toBe('--port: expected a port from 1 to 65535, got "70000"');
    expect(refusal([], { PORT: "http" })).toBe('PORT: expected a port from 1 to 65535, got "http"');
    expect(refusal(["record"])).toContain("record needs the agent's command");
    expect(refusal(["record", "--open", "--", "x"])).toBe("unknown option --open for record (context-lab --help lists them)");
    expect(refusal(["serve"])).toContain('unexpected argument "serve"');
    expect(refusal(["record", "--label"])).toBe("--label needs a value");
  });

  it("[PK-1] the help names every flag and every environment variable the command reads", () => {
    for (const flag of ["--port", "--open", "--help", "--version", "record", "stop", "--allow-scripts=better-sqlite3"]) expect(START_HELP).toContain(flag);
    const variables = [
      "PORT",
      "HOST",
      "CONTEXT_LAB_HOME",
      "DATABASE_URL",
      "CONTEXT_LAB_TOKEN",
      "CONTEXT_LAB_ALLOWED_HOSTS",
      "CONTEXT_LAB_UPSTREAM_BASE_URL",
      "CONTEXT_LAB_UPSTREAM_API_KEY",
      "CONTEXT_LAB_UPSTREAM_TIMEOUT_MS",
      "CONTEXT_LAB_ANTHROPIC_BASE_URL",
      "CONTEXT_LAB_ANTHROPIC_API_KEY",
      "CONTEXT_LAB_UPSTREAM_SETTINGS_FILE",
    ];
    for (const variable of variables) expect(START_HELP).toContain(variable);
    for (const word of ["--label", "OPENAI_BASE_URL", "OPENAI_API_BASE", "OPENAI_API_KEY", "ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN"]) {
      expect(RECORD_HELP).toContain(word);
    }
  });
});

describe("the data place", () => {
  it("[PK-3] is ~/.context-lab unless CONTEXT_LAB_HOME or DATABASE_URL says otherwise", () => {
    const home = path.join(os.homedir(), ".context-lab");
    expect(resolveDataPlace({}, "/work")).toEqual({
      home,
      databaseUrl: `file:${home}/context-lab.db`,
      databaseDescription: `SQLite ${home}/context-lab.db`,
      settingsFile: `${home}/upstream.json`,
    });
    expect(resolveDataPlace({ CONTEXT_LAB_HOME: "lab" }, "/work")).toMatchObject({ home: "/work/lab", databaseUrl: "file:/work/lab/context-lab.db" });
    expect(resolveDataPlace({ DATABASE_URL: "file:./data/x.db" }, "/work")).toMatchObject({ home, databaseUrl: "file:/work/data/x.db" });
    const postgres = resolveDataPlace({ DATABASE_URL: "postgresql://me:secret@db.local:5433/lab?schema=s" }, "/work");
    expect(postgres.databaseUrl).toBe("postgresql://me:secret@db.local:5433/lab?schema=s");
    expect(postgres.databaseDescription).toBe("PostgreSQL db.local:5433/lab");
  });
});
