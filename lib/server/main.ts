// The server entry (SV-1): `node <dist>/context-lab-server.mjs [--dev] [-H host] [-p port] [--dir project]`.
// scripts/serve.sh, `npx context-lab` and the test and bench harnesses start the app through it.
import { startContextLabServer } from "./server";

function optionOf(args: string[], names: string[]): string | undefined {
  const index = args.findIndex((arg) => names.includes(arg));
  return index === -1 ? undefined : args[index + 1];
}

const args = process.argv.slice(2);
const dev = args.includes("--dev");
const hostname = optionOf(args, ["-H", "--hostname"]) ?? process.env.HOST ?? "127.0.0.1";
const port = Number(optionOf(args, ["-p", "--port"]) ?? process.env.PORT ?? 3000);
const dir = optionOf(args, ["--dir"]) ?? process.cwd();
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`context-lab: the port must be a whole number from 0 to 65535, not ${port}`);
  process.exit(2);
}

const server = await startContextLabServer({ dev, dir, hostname, port });
console.log(`context-lab: ready on ${server.url} (${dev ? "development" : "production"})`);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    // Open live streams would hold `close` forever: the process ends once the listener is closed.
    void server.close().finally(() => process.exit(0));
    setTimeout(() => process.exit(0), 2_000).unref();
  });
}
