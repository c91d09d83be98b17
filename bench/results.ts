import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const RESULTS = path.join(import.meta.dirname, "RESULTS.md");

/** The machine the figures were measured on, for the section header. */
export function machine(): string {
  const cpu = os.cpus()[0]?.model ?? "unknown CPU";
  return `${os.cpus().length} × ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
}

/**
 * Replaces one benchmark's section of bench/RESULTS.md (between its markers),
 * so each benchmark can be re-run alone without losing the others' figures.
 */
export function writeSection(name: string, markdown: string): void {
  const begin = `<!-- bench:${name}:begin -->`;
  const end = `<!-- bench:${name}:end -->`;
  const block = `${begin}\n${markdown.trim()}\n${end}`;
  const current = fs.existsSync(RESULTS)
    ? fs.readFileSync(RESULTS, "utf8")
    : "# Benchmark results\n\nWritten by `npm run bench`; each section is replaced when its benchmark runs again.\n";
  const pattern = new RegExp(`${begin}[\\s\\S]*?${end}`);
  const next = pattern.test(current) ? current.replace(pattern, block) : `${current.trimEnd()}\n\n${block}\n`;
  fs.writeFileSync(RESULTS, next);
}

export function table(headers: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(" | ")} |`;
  return [line(headers), line(headers.map(() => "---")), ...rows.map(line)].join("\n");
}

export function formatMs(ms: number): string {
  return ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2);
}

export function formatMb(bytes: number): string {
  return (bytes / 2 ** 20).toFixed(1);
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
