// The conversation every adapter test runs: four finished rounds of flight
// searches with long tool results, then a booking the model does with a tool
// call the framework runs. The saved policy keeps three rounds and masks all
// but the newest tool result, so each request differs from the history.
import type { Message, RequestPolicy, ToolDefinition } from "@/lib/context";
import { policyOfPreset, settingsWithPolicy, type Policy } from "@/lib/policies";
import { DEFAULT_SETTINGS, resolveSettings, type Settings } from "@/lib/settings";
import type { FakeScript } from "@/tests/support/fake-openai";

export const SYSTEM = "You are a travel assistant. Answer briefly.";
export const CITIES = ["Lisbon", "Porto", "Madrid", "Paris"] as const;
export const LAST_QUESTION = "Book the cheapest flight to Paris.";
export const BOOKING_ARGUMENTS = '{"id":"PAR100"}';
export const BOOKED = "Booked PAR100, confirmation XQ7731.";
export const ANSWER = "Your flight PAR100 is booked: confirmation XQ7731.";

const CITY_PARAMETERS = { type: "object", properties: { to: { type: "string" } }, required: ["to"], additionalProperties: false };
const BOOK_PARAMETERS = { type: "object", properties: { id: { type: "string" } }, required: ["id"], additionalProperties: false };

export const TOOLS: ToolDefinition[] = [
  { type: "function", function: { name: "search_flights", description: "Search tomorrow's flights to a city.", parameters: CITY_PARAMETERS } },
  { type: "function", function: { name: "book_flight", description: "Book a flight by its id.", parameters: BOOK_PARAMETERS } },
];

function flights(city: string): string {
  const code = city.slice(0, 3).toUpperCase();
  return Array.from(
    { length: 12 },
    (_, index) => `Flight ${code}${100 + index} departs 0${index % 10}:15, arrives 1${index % 10}:40, fare ${120 + index * 7} EUR, seats left ${index % 9}.`,
  ).join("\n");
}

/** One finished round: the question, the search call, its result, the answer. */
export interface Round {
  question: string;
  callId: string;
  city: string;
  result: string;
  answer: string;
}

export const ROUNDS: Round[] = CITIES.map((city, index) => ({
  question: `Which flights go to ${city} tomorrow?`,
  callId: `call_search_${index}`,
  city,
  result: flights(city),
  answer: `There are 12 flights to ${city}; the cheapest is ${city.slice(0, 3).toUpperCase()}100 at 120 EUR.`,
}));

/** The history before the agent runs, canonical (the proxy's and the Prompt tab's view of it), system prompt first. */
export function history(): Message[] {
  return [
    { role: "system", content: SYSTEM },
    ...ROUNDS.flatMap((round): Message[] => [
      { role: "user", content: round.question },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: round.callId, type: "function", function: { name: "search_flights", arguments: JSON.stringify({ to: round.city }) } }],
      },
      { role: "tool", tool_call_id: round.callId, content: round.result },
      { role: "assistant", content: round.answer },
    ]),
    { role: "user", content: LAST_QUESTION },
  ];
}

/** The history of the agent's second model call: the first, the model's booking call (id `callId`) and its result. */
export function historyAfterBooking(callId: string): Message[] {
  return [
    ...history(),
    { role: "assistant", content: null, tool_calls: [{ id: callId, type: "function", function: { name: "book_flight", arguments: BOOKING_ARGUMENTS } }] },
    { role: "tool", tool_call_id: callId, content: BOOKED },
  ];
}

/** What the fake model does: book, then answer. */
export function bookingScript(callId: string): FakeScript[] {
  return [{ toolCalls: [{ id: callId, name: "book_flight", arguments: BOOKING_ARGUMENTS }] }, { content: ANSWER }];
}

/** A saved policy as the Policies panel holds it: the navigator preset with three rounds, no summary, and observation masking keeping one result. */
export function savedPolicy(base: Settings = DEFAULT_SETTINGS): Policy {
  const preset = policyOfPreset("navigator", base);
  return {
    ...preset,
    historyRounds: 3,
    summaryThreshold: null,
    processors: preset.processors.map((entry) => ({
      ...entry,
      enabled: (entry.enabled || entry.kind === "observation_masking") && entry.kind !== "dialogue_compressor",
    })),
    tuning: { observation_masking: { keepObservations: 1, placeholder: "[earlier tool result omitted]" } },
  };
}

/** The saved policy as the adapters take it: resolved against the model catalogue, as its export is. */
export function requestPolicy(saved: Policy = savedPolicy()): RequestPolicy {
  return resolveSettings(settingsWithPolicy(DEFAULT_SETTINGS, saved)).policy;
}
