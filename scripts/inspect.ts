import fs from "node:fs";
import { runInspect } from "@/lib/cli/inspect";

const code = await runInspect(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(`${text}\n`),
  stderr: (text) => process.stderr.write(`${text}\n`),
  readStdin: () => fs.readFileSync(0, "utf8"),
});
process.exitCode = code;
