import { describe, expect, it } from "vitest";
import type { ImagePart, Message } from "../messages";
import { TiktokenCounter } from "./counter";
import { base64Bytes, imageSizeOf, wavSeconds } from "./image-size";
import { anthropicImageTokens, audioTokens, documentTokens, geminiImageTokens, imageTokens, openAIImageTokens, partTokens } from "./media";

function base64(bytes: number[]): string {
  return btoa(String.fromCharCode(...bytes));
}

/** A PNG signature and IHDR chunk stating the size. */
function png(width: number, height: number): string {
  const be32 = (value: number) => [(value >>> 24) & 255, (value >>> 16) & 255, (value >>> 8) & 255, value & 255];
  return base64([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, ...be32(width), ...be32(height), 8, 6, 0, 0, 0]);
}

const image = (data: string, detail?: ImagePart["detail"]): ImagePart => ({
  type: "image",
  source: { type: "base64", mediaType: "image/png", data },
  ...(detail ? { detail } : {}),
});

describe("image sizes from headers", () => {
  it("[F-M5] reads PNG, GIF, WebP and JPEG sizes from the first bytes", () => {
    expect(imageSizeOf(base64Bytes(png(640, 480), 64))).toEqual({ width: 640, height: 480 });
    expect(imageSizeOf(new Uint8Array([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0x20, 0x03, 0x58, 0x02]))).toEqual({ width: 800, height: 600 });
    const webp = [..."RIFF"]
      .map((c) => c.charCodeAt(0))
      .concat(
        [0, 0, 0, 0],
        [..."WEBPVP8X"].map((c) => c.charCodeAt(0)),
        [10, 0, 0, 0, 0, 0, 0, 0],
        [0x1f, 0x03, 0x00, 0x57, 0x02, 0x00],
      );
    expect(imageSizeOf(new Uint8Array(webp))).toEqual({ width: 800, height: 600 });
    // SOI, an APP0 segment, then SOF0 with height 600 and width 800.
    const jpeg = [0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x00, 0x00, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x02, 0x58, 0x03, 0x20, 0x03];
    expect(imageSizeOf(new Uint8Array(jpeg))).toEqual({ width: 800, height: 600 });
    expect(imageSizeOf(base64Bytes("iVBORw0KGgo=", 64))).toBeUndefined();
  });

  it("[F-M4] reads a WAV's length from its byte rate", () => {
    const header = [..."RIFF"]
      .map((c) => c.charCodeAt(0))
      .concat(
        [0, 0, 0, 0],
        [..."WAVEfmt "].map((c) => c.charCodeAt(0)),
        [16, 0, 0, 0, 1, 0, 1, 0, 0x40, 0x1f, 0, 0, 0x40, 0x1f, 0, 0, 1, 0, 8, 0],
        [..."data"].map((c) => c.charCodeAt(0)),
        [0, 0, 0, 0],
      );
    const samples = new Array(8000 * 2).fill(128);
    expect(wavSeconds(base64([...header, ...samples]))).toBeCloseTo(2, 2);
  });
});

describe("media token rules", () => {
  it("[E-M1] counts OpenAI images by 512-px tiles after fitting 2048² and 768 on the short side", () => {
    expect(openAIImageTokens({ width: 1024, height: 1024 }, "high")).toBe(765);
    expect(openAIImageTokens({ width: 2048, height: 4096 }, "high")).toBe(1105);
    expect(openAIImageTokens({ width: 4096, height: 8192 }, "low")).toBe(85);
    expect(openAIImageTokens({ width: 512, height: 512 }, "auto")).toBe(255);
  });

  it("[E-M2] counts Anthropic images as width × height / 750 after the resize to 1568 px and about 1600 tokens", () => {
    expect(anthropicImageTokens({ width: 200, height: 200 })).toBe(54);
    expect(anthropicImageTokens({ width: 1000, height: 1000 })).toBe(1334);
    expect(anthropicImageTokens({ width: 1092, height: 1092 })).toBeLessThanOrEqual(1600);
    expect(anthropicImageTokens({ width: 4000, height: 3000 })).toBeLessThanOrEqual(1600);
  });

  it("[E-M3] counts Gemini images as 258, or 258 per 768-px tile above 384 px", () => {
    expect(geminiImageTokens({ width: 384, height: 300 })).toBe(258);
    expect(geminiImageTokens({ width: 1000, height: 1000 })).toBe(1032);
  });

  it("[F-M5] reads the size from the image data, and flags a default size as approximate", () => {
    expect(imageTokens(image(png(1024, 1024), "high"), "openai")).toEqual({ tokens: 765, approximate: false });
    expect(imageTokens(image(png(300, 300)), "gemini")).toEqual({ tokens: 258, approximate: false });
    const url: ImagePart = { type: "image", source: { type: "url", url: "https://example.com/a.jpg" } };
    expect(imageTokens(url, "openai")).toEqual({ tokens: 765, approximate: true });
    expect(imageTokens({ ...url, detail: "low" }, "openai")).toEqual({ tokens: 85, approximate: false });
  });

  it("[F-M4] counts Gemini audio at 32 tokens a second, exactly when the length is known", () => {
    expect(audioTokens({ type: "audio", source: { type: "file", fileId: "f" }, seconds: 10 }, "gemini")).toEqual({ tokens: 320, approximate: false });
    expect(audioTokens({ type: "audio", source: { type: "file", fileId: "f" } }, "gemini").approximate).toBe(true);
  });

  it("[F-M6] counts a PDF by its pages, 258 each for Gemini, and a text document as its text", () => {
    const pdf = btoa("%PDF-1.4\n1 0 obj << /Type /Pages /Count 2 >>\n2 0 obj << /Type /Page >>\n3 0 obj << /Type/Page >>\n");
    const part = { type: "document" as const, source: { type: "base64" as const, mediaType: "application/pdf", data: pdf } };
    expect(documentTokens(part, "gemini", () => 0)).toEqual({ tokens: 516, approximate: false });
    expect(documentTokens(part, "anthropic", () => 0)).toEqual({ tokens: 3000, approximate: true });
    expect(documentTokens({ type: "document", source: { type: "text", text: "abc" } }, "openai", (text) => text.length)).toEqual({
      tokens: 3,
      approximate: false,
    });
  });

  it("[F-M7] counts reasoning and refusals as text and text parts as nothing beyond content", () => {
    const count = (text: string) => text.length;
    expect(partTokens({ type: "reasoning", text: "abcd", summary: ["ef"] }, "openai", count).tokens).toBe(6);
    expect(partTokens({ type: "refusal", text: "no" }, "openai", count).tokens).toBe(2);
    expect(partTokens({ type: "text", text: "ignored" }, "openai", count).tokens).toBe(0);
  });
});

describe("TiktokenCounter with media", () => {
  it("[F-M7] adds each part's cost to the message, by the counter's media rule", () => {
    const text: Message = { role: "user", content: "look" };
    const withImage: Message = { ...text, parts: [{ type: "text", text: "look" }, image(png(1024, 1024), "high")] };
    const openai = new TiktokenCounter({ encoding: "o200k_base" });
    const gemini = new TiktokenCounter({ encoding: "o200k_base", mediaRule: "gemini" });
    expect(openai.countMessage(withImage) - openai.countMessage(text)).toBe(765);
    expect(gemini.countMessage(withImage) - gemini.countMessage(text)).toBe(1032);
  });
});
