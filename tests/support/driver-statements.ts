import Sqlite from "better-sqlite3";
import pg from "pg";
import { vi } from "vitest";

/**
 * What the drivers are asked while `work` runs, for tests that check which
 * statements skip Prisma: the SQL texts better-sqlite3 prepares (Prisma's
 * adapter prepares each of its statements anew; statements prepared once and
 * reused do not show), and every statement `pg` is sent, with whether it was
 * sent without Prisma (Prisma sends its own with `rowMode: "array"`).
 */
export async function driverStatementsDuring(work: () => Promise<void>): Promise<{ prepared: string[]; sent: { text: string; direct: boolean }[] }> {
  const prepared: string[] = [];
  const sent: { text: string; direct: boolean }[] = [];
  const prototype = Sqlite.prototype as unknown as { prepare: (sql: string) => unknown };
  const prepare = prototype.prepare;
  prototype.prepare = function (this: unknown, sql: string) {
    prepared.push(sql);
    return prepare.call(this, sql);
  };
  const query = pg.Client.prototype.query;
  const spy = vi.spyOn(pg.Client.prototype, "query").mockImplementation(function (this: pg.Client, ...args: unknown[]) {
    const [config] = args;
    if (typeof config === "string") sent.push({ text: config, direct: false });
    else if (typeof config === "object" && config !== null && "text" in config) {
      const { text, rowMode } = config as { text: string; rowMode?: string };
      sent.push({ text, direct: rowMode !== "array" });
    }
    return (query as (...values: unknown[]) => unknown).apply(this, args);
  } as typeof query);
  try {
    await work();
  } finally {
    prototype.prepare = prepare;
    spy.mockRestore();
  }
  return { prepared, sent };
}
