import os from "node:os";
import { BytePairEncodingCore } from "gpt-tokenizer/BytePairEncodingCore";
import gptCl100k from "gpt-tokenizer/bpeRanks/cl100k_base";
import gptO200k from "gpt-tokenizer/bpeRanks/o200k_base";
import { Tiktoken } from "js-tiktoken/lite";
import tiktokenCl100k from "js-tiktoken/ranks/cl100k_base";
import tiktokenO200k from "js-tiktoken/ranks/o200k_base";
import { ENCODINGS, getTextEncoder, LONG_TEXT_LENGTH, SPLIT_PATTERNS, type EncodingName } from "@/lib/context/tokens/encodings";
import { CHUNK_ENDS } from "@/lib/context/tokens/pre-tokenize";
import { loadTrajectories } from "./corpus";
import { formatMs, machine, median, table, writeSection } from "./results";

const REPEATS = 5;
const RUN_LENGTHS = [16_384, 65_536, 262_144, 1_048_576, 10 * 1_048_576];
// gpt-tokenizer and js-tiktoken merge a chunk quadratically: only short runs are timed for them
// (js-tiktoken takes minutes on 65,536 characters already).
const QUADRATIC_LIMITS: Readonly<Record<string, number>> = { "gpt-tokenizer": 65_536, "js-tiktoken": 16_384 };
const quadraticLimit = (name: string) => QUADRATIC_LIMITS[name.split(" ")[0]] ?? Number.POSITIVE_INFINITY;

interface Counter {
  name: string;
  count: (text: string) => number;
}

function counters(encoding: EncodingName): Counter[] {
  const ours = getTextEncoder(encoding);
  const core = new BytePairEncodingCore({
    bytePairRankDecoder: encoding === "cl100k_base" ? gptCl100k : gptO200k,
    tokenSplitRegex: new RegExp(SPLIT_PATTERNS[encoding], "gu"),
    specialTokensEncoder: new Map(),
  });
  const reference = new Tiktoken(encoding === "cl100k_base" ? tiktokenCl100k : tiktokenO200k);
  const pattern = new RegExp(SPLIT_PATTERNS[encoding], "gu");
  const chunkEnd = CHUNK_ENDS[encoding];
  return [
    { name: "ours", count: (text) => ours.count(text) },
    { name: "gpt-tokenizer 4 (BPE core, js-tiktoken's pattern)", count: (text) => core.countNative(text) },
    { name: "js-tiktoken 1 (the reference)", count: (text) => reference.encode(text, [], []).length },
    {
      name: "floor: the u-flag split regex alone",
      count: (text) => {
        let chunks = 0;
        pattern.lastIndex = 0;
        while (pattern.exec(text) !== null) chunks += 1;
        return chunks;
      },
    },
    {
      name: "our pre-tokenizer alone",
      count: (text) => {
        let chunks = 0;
        for (let start = 0; start < text.length; chunks += 1) start = chunkEnd(text, start);
        return chunks;
      },
    },
  ];
}

/** Every text the counter meets in the 200 tau-bench conversations: contents, tool names and arguments. */
function corpusText(): string {
  const texts: string[] = [];
  for (const trajectory of loadTrajectories()) {
    for (const message of trajectory.traj) {
      if (typeof message.content === "string") texts.push(message.content);
      for (const call of message.tool_calls ?? []) texts.push(call.function.name, call.function.arguments);
    }
  }
  return texts.join("\n");
}

function time(run: () => number): { ms: number; result: number } {
  const started = performance.now();
  const result = run();
  return { ms: performance.now() - started, result };
}

function gc(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

export async function benchTokenizer(): Promise<string> {
  const corpus = corpusText();
  const bytes = new TextEncoder().encode(corpus).length;
  // Ours keeps the counts of long texts (E-T10): each timed run counts a text no counter has seen, the corpus and the run's number.
  const unseen = Array.from({ length: REPEATS }, (_, repeat) => `${corpus}\n${repeat}`);
  const throughput: (string | number)[][] = [];
  const worst: (string | number)[][] = [];
  const cold: (string | number)[][] = [];
  for (const encoding of ENCODINGS) {
    const built = time(() => {
      getTextEncoder(encoding);
      return 0;
    });
    cold.push([encoding, formatMs(built.ms)]);
    for (const counter of counters(encoding)) {
      // One warm-up run, so every contender is measured optimised.
      const first = counter.count(corpus);
      const runs: number[] = [];
      for (const text of unseen) {
        gc();
        runs.push(time(() => counter.count(text)).ms);
      }
      const ms = median(runs);
      throughput.push([encoding, counter.name, first.toLocaleString("en"), formatMs(ms), (bytes / 1e6 / (ms / 1000)).toFixed(1)]);
      console.log(`tokenizer ${encoding} ${counter.name}: ${formatMs(ms)} ms, ${(bytes / 1e6 / (ms / 1000)).toFixed(1)} MB/s`);
    }
    for (const length of RUN_LENGTHS) {
      for (const [label, character] of [
        ["a", "a"],
        ["=", "="],
      ] as const) {
        const run = character.repeat(length);
        for (const counter of counters(encoding).slice(0, 3)) {
          if (counter.name !== "ours" && (length > quadraticLimit(counter.name) || label !== "a")) continue;
          gc();
          const measured = time(() => counter.count(run));
          worst.push([encoding, `${length.toLocaleString("en")} × \`${label}\``, counter.name, measured.result.toLocaleString("en"), formatMs(measured.ms)]);
          console.log(`tokenizer ${encoding} ${length} × ${label} ${counter.name}: ${formatMs(measured.ms)} ms`);
        }
      }
    }
  }
  const markdown = [
    "## Tokenizer: counting throughput and worst case",
    "",
    `Measured on ${machine()}, ${new Date().toISOString().slice(0, 10)}, in one process, on a machine shared with other jobs (its load average is in the note below). Corpus: every message content, tool name and tool-call arguments of the 200 tau-bench airline conversations (MIT), joined with newlines: ${(bytes / 1e6).toFixed(2)} MB of UTF-8 in one string. MB/s = 10^6 bytes of UTF-8 per second; median of ${REPEATS} runs after one warm-up, a gc before each, each run on a text not counted before (the corpus followed by the run's number: ours keeps the counts of texts of ${LONG_TEXT_LENGTH.toLocaleString("en")} characters or more, E-T10, and a text counted twice would be a lookup). "ours" is lib/context/tokens (hand-written pre-tokenizer E-T8, heap merge E-T9); the floors only split the text into chunks, without looking up or merging anything. Load average while measuring: ${loadAverage()}.`,
    "",
    table(["encoding", "implementation", "tokens (chunks for the floors)", "ms", "MB/s"], throughput),
    "",
    "### Worst case: one character repeated (a single chunk)",
    "",
    `gpt-tokenizer and js-tiktoken rescan every pair after each merge (quadratic); they are timed on runs of \`a\` up to ${QUADRATIC_LIMITS["gpt-tokenizer"].toLocaleString("en")} and ${QUADRATIC_LIMITS["js-tiktoken"].toLocaleString("en")} characters. One run each, cold for that length.`,
    "",
    table(["encoding", "input", "implementation", "tokens", "ms"], worst),
    "",
    "### Building an encoder (rank table and hash table), first use",
    "",
    table(["encoding", "ms"], cold),
  ].join("\n");
  writeSection("tokenizer", markdown);
  return markdown;
}

function loadAverage(): string {
  return os
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(", ");
}
