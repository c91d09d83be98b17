import { presetPolicy, rawPolicy, replayConversation, sumTotals, type RequestPolicy, type ReplayTotals } from "@/lib/context";
import { cachingOf, findModel } from "@/lib/models";
import { loadTrajectories } from "./corpus";
import { machine, table, writeSection } from "./results";

/**
 * The field's context strategies side by side on all 200 tau-bench airline
 * trajectories (MIT): each trajectory replayed call by call under raw and each
 * policy (what a live agent would have sent before each of its model calls),
 * summed over the corpus, costed at the catalogue's prices for the presets' model.
 */

interface Compared {
  label: string;
  policy: RequestPolicy;
}

const POLICIES: readonly Compared[] = [
  { label: "Raw (the whole history every call)", policy: rawPolicy(presetPolicy("copilot")) },
  { label: "Observation masking (newest 5 tool results kept)", policy: presetPolicy("observation_masking") },
  { label: "Tool-result clearing, Anthropic's defaults (past 30,000 tokens, newest 3 uses kept)", policy: presetPolicy("clear_tool_uses") },
  {
    label: "Tool-result clearing, past 2,000 tokens (a trigger these conversations reach)",
    policy: { ...presetPolicy("clear_tool_uses"), tuning: { clear_tool_uses: { triggerTokens: 2_000 } } },
  },
  { label: "Copilot (the default pipeline)", policy: presetPolicy("copilot") },
  { label: "Budget only (oldest rounds dropped when the window is full)", policy: presetPolicy("budget_only") },
];

interface Row {
  label: string;
  /** Priced with the cache model (the model's minimum, increment and lifetime). */
  totals: ReplayTotals;
  /** Every input token at the input price: the bill without a prompt cache. */
  uncachedCost: number;
  riskyTrajectories: number;
}

/** 1-based places of each row when sorted by `cost`, cheapest first. */
function ranks(rows: readonly Row[], cost: (row: Row) => number): number[] {
  const order = [...rows.keys()].sort((left, right) => cost(rows[left]) - cost(rows[right]));
  const places = new Array<number>(rows.length);
  order.forEach((index, place) => {
    places[index] = place + 1;
  });
  return places;
}

/** What the table shows, in words, from this run's figures. */
function findings(rows: readonly Row[]): string {
  const [raw, ...policies] = rows;
  const name = (row: Row) => row.label.split(" (")[0];
  const same = policies.filter((row) => row.totals.inputTokens === raw.totals.inputTokens).map(name);
  const fewest = policies.reduce((best, row) => (row.totals.inputTokens < best.totals.inputTokens ? row : best));
  const riskiest = policies.reduce((most, row) => (row.totals.riskyCalls > most.totals.riskyCalls ? row : most));
  const parts = [
    same.length > 0
      ? `${same.join(" and ")} send exactly what raw sends: these conversations (a few thousand tokens each) never reach a 30,000-token trigger or fill a 128,000-token window.`
      : "",
    `${name(fewest)} sends the fewest tokens (${ratio(fewest.totals.inputTokens, raw.totals.inputTokens)} × raw, ${fewest.totals.cost && raw.totals.cost ? ratio(fewest.totals.cost.total, raw.totals.cost.total) : "—"} × its cost): the saving in dollars is smaller than in tokens because every rewrite of older turns breaks the prompt cache (${fewest.totals.cacheBreaks.toLocaleString("en")} breaks, ${percent(fewest.totals.cacheHitShare)} cached against raw's ${percent(raw.totals.cacheHitShare)}).`,
    `${riskiest === fewest ? "It also has" : `${name(riskiest)} has`} the most recall-risk flags (${riskiest.totals.riskyCalls} calls in ${riskiest.riskyTrajectories} trajectories): later turns that mention what it had taken out of the request.`,
  ];
  return parts.filter(Boolean).join(" ");
}

/** Where the cache model reorders the policies by cost, in words. */
function orderChanges(rows: readonly Row[], without: readonly number[], cached: readonly number[]): string {
  const name = (row: Row) => row.label.split(" (")[0];
  const moved = rows.flatMap((row, index) => (without[index] === cached[index] ? [] : [`${name(row)} (${without[index]} → ${cached[index]})`]));
  if (moved.length === 0) return "The cache model leaves the policies' order by cost as it is without a cache.";
  return `The cache changes the policies' order by cost: ${moved.join(", ")}. A policy that rewrites older turns saves tokens but pays full price for the prefixes it breaks.`;
}

const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
const ratio = (value: number, base: number) => (base === 0 ? "—" : (value / base).toFixed(3));

export async function benchCompare(): Promise<string> {
  const trajectories = loadTrajectories();
  const model = presetPolicy("copilot").model;
  const entry = findModel(model).entry;
  const prices = entry.prices ?? null;
  // No cache discount at all: cache reads and writes at the input price.
  const uncachedPrices = prices === null ? null : { input: prices.input, output: prices.output, cachedInput: prices.input, cacheWrite: prices.input };
  const cache = cachingOf(entry);
  const rows: Row[] = [];
  const started = performance.now();
  for (const { label, policy } of POLICIES) {
    const totals: ReplayTotals[] = [];
    let uncachedCost = 0;
    let riskyTrajectories = 0;
    for (const trajectory of trajectories) {
      const replay = await replayConversation({ messages: trajectory.traj, policy, prices, cache, keepMessages: false });
      totals.push(replay.totals);
      if (replay.totals.riskyCalls > 0) riskyTrajectories += 1;
      const plain = await replayConversation({ messages: trajectory.traj, policy, prices: uncachedPrices, keepMessages: false });
      uncachedCost += plain.totals.cost?.total ?? 0;
    }
    rows.push({ label, totals: sumTotals(totals), uncachedCost, riskyTrajectories });
    console.log(`compare ${label}: ${rows.at(-1)!.totals.inputTokens.toLocaleString("en")} input tokens`);
  }
  const withoutCache = ranks(rows, (row) => row.uncachedCost);
  const withCache = ranks(rows, (row) => row.totals.cost?.total ?? 0);
  const seconds = (performance.now() - started) / 1_000;
  const raw = rows[0].totals;
  const markdown = [
    "## Policies compared on 200 tau-bench trajectories",
    "",
    `Measured on ${machine()}, ${new Date().toISOString().slice(0, 10)}, in ${seconds.toFixed(1)} s. Every one of the 200 GPT-4o airline trajectories of tau-bench (MIT) replayed call by call (${raw.calls.toLocaleString("en")} model calls) under each policy with \`replayConversation\`, on ${model} (o200k_base, 128,000-token window), costed at the model catalogue's prices (${prices ? `$${prices.input} input, $${prices.cachedInput ?? prices.input} cached input, $${prices.output} output per million tokens` : "none"}). The trajectories carry no tool definitions, so only messages are counted. "Without a cache" prices every input token at the input price; "with the cache model" prices each call's cache reads as the cache model predicts them for ${model} (${cache.mode} caching from ${cache.minimumTokens.toLocaleString("en")} tokens in steps of ${cache.increment}, ${cache.ttls.join(" or ")} lifetime: the same prediction the Calls and Compare tabs use); the trajectories carry no times, so no call waits past the cache's lifetime. A recall risk is a later turn mentioning an id, number, file name, quoted string or URL that, at that call, was only in content the policy had taken out: a signal, not a proof.`,
    "",
    table(
      [
        "policy",
        "input tokens",
        "× raw",
        "cost without a cache",
        "rank",
        "cost with the cache model",
        "× raw",
        "rank",
        "prefix shared with the call before",
        "cache breaks",
        "budget stops",
        "calls with a recall risk",
        "trajectories with one",
      ],
      rows.map(({ label, totals, uncachedCost, riskyTrajectories }, index) => [
        label,
        totals.inputTokens.toLocaleString("en"),
        ratio(totals.inputTokens, raw.inputTokens),
        `$${uncachedCost.toFixed(2)}`,
        withoutCache[index],
        totals.cost ? `$${totals.cost.total.toFixed(2)}` : "—",
        totals.cost && raw.cost ? ratio(totals.cost.total, raw.cost.total) : "—",
        withCache[index],
        percent(totals.cacheHitShare),
        totals.cacheBreaks,
        totals.budgetStops,
        totals.riskyCalls,
        riskyTrajectories,
      ]),
    ),
    "",
    findings(rows),
    "",
    orderChanges(rows, withoutCache, withCache),
  ].join("\n");
  writeSection("compare", markdown);
  return markdown;
}
