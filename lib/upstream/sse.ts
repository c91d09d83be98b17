/** One server-sent event. */
export interface SseMessage {
  event: string | null;
  data: string;
}

const LINE_END = /[\r\n]/g;

/**
 * An incremental `text/event-stream` parser: feed it bytes as they arrive,
 * get back the events completed so far. Lines may end in `\n`, `\r\n` or
 * `\r`, and may be split anywhere across chunks (a UTF-8 character too).
 */
export class SseParser {
  private buffer = "";
  private readonly decoder = new TextDecoder();
  private data: string[] = [];
  private event: string | null = null;

  push(chunk: Uint8Array): SseMessage[] {
    this.buffer += this.decoder.decode(chunk, { stream: true });
    return this.drain(false);
  }

  /** Flushes the last event when the stream ended without a blank line. */
  end(): SseMessage[] {
    this.buffer += this.decoder.decode();
    const messages = this.drain(true);
    if (this.buffer !== "") this.line(this.buffer, messages);
    this.buffer = "";
    this.line("", messages);
    return messages;
  }

  private drain(final: boolean): SseMessage[] {
    const messages: SseMessage[] = [];
    const buffer = this.buffer;
    let start = 0;
    LINE_END.lastIndex = 0;
    for (let match = LINE_END.exec(buffer); match; match = LINE_END.exec(buffer)) {
      const end = match.index;
      let next = end + 1;
      if (buffer[end] === "\r") {
        // A "\r" at the very end may be the first half of "\r\n".
        if (next === buffer.length && !final) break;
        if (buffer[next] === "\n") next += 1;
      }
      this.line(buffer.slice(start, end), messages);
      start = next;
      LINE_END.lastIndex = next;
    }
    this.buffer = buffer.slice(start);
    return messages;
  }

  private line(line: string, messages: SseMessage[]): void {
    if (line === "") {
      if (this.data.length > 0) messages.push({ event: this.event, data: this.data.join("\n") });
      this.data = [];
      this.event = null;
      return;
    }
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") this.data.push(value);
    else if (field === "event") this.event = value;
  }
}
