import { benchEngine, benchEngineLangchain } from "./engine";

// `npm run bench` runs every benchmark; `npm run bench -- engine` runs the named ones.
const benchmarks: Record<string, () => Promise<unknown>> = {
  engine: benchEngine,
  "engine-langchain": benchEngineLangchain,
  proxy: () => import("./proxy").then((module) => module.benchProxy()),
  "proxy-next": () => import("./proxy-next").then((module) => module.benchProxyNext()),
  "proxy-load": () => import("./proxy-load").then((module) => module.benchProxyLoad()),
  "proxy-growth": () => import("./proxy-growth").then((module) => module.benchProxyGrowth()),
  memory: () => import("./memory").then((module) => module.benchMemory()),
  playground: () => import("./playground").then((module) => module.benchPlayground()),
  replay: () => import("./replay").then((module) => module.benchReplay()),
  compare: () => import("./compare").then((module) => module.benchCompare()),
  "replay-browser": () => import("./replay-browser").then((module) => module.benchReplayBrowser()),
  tokenizer: () => import("./tokenizer").then((module) => module.benchTokenizer()),
  stall: () => import("./stall").then((module) => module.benchStall()),
  "page-import": () => import("./page-import").then((module) => module.benchPageImport()),
  "session-file": () => import("./session-file").then((module) => module.benchSessionFile()),
  library: () => import("./library").then((module) => module.benchLibrary()),
};

const wanted = process.argv.slice(2).filter((argument) => !argument.startsWith("-"));
const unknown = wanted.filter((name) => !(name in benchmarks));
if (unknown.length > 0) {
  console.error(`unknown benchmark ${unknown.join(", ")}: choose from ${Object.keys(benchmarks).join(", ")}`);
  process.exit(2);
}
if (!(globalThis as { gc?: unknown }).gc) console.warn("bench: run with --expose-gc (npm run bench does) for steady memory figures");
/** Run only when named: one LangChain run at 100,000 messages takes tens of minutes. */
const ON_REQUEST = new Set(["engine-langchain"]);
for (const name of wanted.length > 0 ? wanted : Object.keys(benchmarks).filter((name) => !ON_REQUEST.has(name))) {
  console.log(`== ${name}`);
  await benchmarks[name]();
}
console.log("bench: figures written to bench/RESULTS.md");
