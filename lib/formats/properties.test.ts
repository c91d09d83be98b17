import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ContentPart, Message, ToolCall } from "@/lib/context/messages";
import { buildMessage } from "./canonical";
import { readRequest, writeRequest, WIRE_FORMATS, type WireFormat } from "./index";
import { withoutImpliedNames } from "./test-support/fixtures";

const text = fc.string({ minLength: 1, maxLength: 12 });
const json = fc.dictionary(
  fc.constantFrom("city", "n", "flag", "list"),
  fc.oneof(fc.string({ maxLength: 6 }), fc.integer(), fc.boolean(), fc.array(fc.integer(), { maxLength: 3 })),
  { maxKeys: 3 },
);

/** A round the way agents make them: a user turn, tool-calling steps each answered, a final answer. */
function round(prefix: string, rich: boolean) {
  const userPart: fc.Arbitrary<ContentPart> = rich
    ? fc.oneof(
        text.map((value): ContentPart => ({ type: "text", text: value })),
        fc.constantFrom<ContentPart>(
          { type: "image", source: { type: "base64", mediaType: "image/png", data: "iVBORw0KGgo=" } },
          { type: "document", source: { type: "base64", mediaType: "application/pdf", data: "JVBERi0xLjQK" } },
        ),
      )
    : text.map((value): ContentPart => ({ type: "text", text: value }));
  const step = fc.array(fc.tuple(fc.constantFrom("lookup", "book", "cancel"), json, text), { minLength: 1, maxLength: 3 });
  return fc
    .record({
      user: fc.array(userPart, { minLength: 1, maxLength: 3 }),
      steps: fc.array(fc.tuple(fc.option(text, { nil: undefined }), fc.option(text, { nil: undefined }), step), { maxLength: 2 }),
      answer: text,
    })
    .map(({ user, steps, answer }) => {
      const messages: Message[] = [buildMessage("user", user)];
      steps.forEach(([thought, said, calls], stepIndex) => {
        const toolCalls: ToolCall[] = calls.map(([name, args], callIndex) => ({
          id: `${prefix}_${stepIndex}_${callIndex}`,
          type: "function",
          function: { name, arguments: JSON.stringify(args) },
        }));
        const parts: ContentPart[] = [];
        if (rich && thought !== undefined) parts.push({ type: "reasoning", text: thought, signature: "sig" });
        if (said !== undefined) parts.push({ type: "text", text: said });
        messages.push(buildMessage("assistant", parts, { tool_calls: toolCalls }));
        calls.forEach(([, , result], callIndex) =>
          messages.push(buildMessage("tool", [{ type: "text", text: result }], { tool_call_id: toolCalls[callIndex].id })),
        );
      });
      messages.push(buildMessage("assistant", [{ type: "text", text: answer }]));
      return messages;
    });
}

function conversation(rich: boolean) {
  return fc
    .tuple(fc.option(text, { nil: undefined }), fc.array(fc.nat(), { minLength: 1, maxLength: 3 }))
    .chain(([system, rounds]) =>
      fc
        .tuple(...rounds.map((_, index) => round(`call${index}`, rich)))
        .map((list) => [...(system === undefined ? [] : [buildMessage("system", [{ type: "text", text: system }])]), ...list.flat()]),
    );
}

function trip(format: WireFormat, messages: Message[]): Message[] {
  const written = writeRequest(format, { messages });
  expect(written.warnings).toEqual([]);
  return readRequest(format, written.value).messages;
}

describe("round trips on generated conversations", () => {
  for (const format of WIRE_FORMATS) {
    it(`[F-7] text, tool calls and results come back deep-equal through ${format}`, () => {
      fc.assert(
        fc.property(conversation(false), (messages) => {
          expect(withoutImpliedNames(trip(format, messages))).toEqual(withoutImpliedNames(messages));
        }),
        { numRuns: 60 },
      );
    });
  }

  for (const format of ["openai-chat", "anthropic"] as const) {
    it(`[F-7] images, documents and signed reasoning come back deep-equal through ${format}`, () => {
      fc.assert(
        fc.property(conversation(true), (messages) => {
          expect(withoutImpliedNames(trip(format, messages))).toEqual(messages);
        }),
        { numRuns: 60 },
      );
    });
  }
});
