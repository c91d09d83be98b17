import type { Context } from "../context";
import { contentHandle, offloadMarker, type HandleFactory } from "../handles";
import { ContextProcessor, type ProcessorResult } from "../pipeline";
import { STATE_KEYS } from "../state";
import { countCharacters, exceedsCharacters, firstCharacters } from "../text";

/** The `post_tool_call` payload: a tool's result, replaced in place when it is too large. */
export interface ToolResultPayload {
  tool_result: string;
  tool_name?: string;
  tool_call_id?: string;
  /** The tool says its output is large: offload whatever its size. */
  large_output?: boolean;
  /** The result was stored as an artifact elsewhere: point at it instead of truncating. */
  artifact_id?: string;
  /** Set by the offloader: the handle of the stored original. */
  offload_handle?: string;
}

export interface ToolResultOffloaderOptions {
  /** Characters a result may hold before it is offloaded. */
  maxSize?: number;
  /** Characters of the result's head kept in the payload; defaults to a fifth of `maxSize`, at most 1000. */
  headSize?: number;
  name?: string;
  createHandle?: HandleFactory;
}

/**
 * Stores a large tool result whole in `offloaded_results` and replaces it in
 * the payload with its head and a note of the full size, or with an artifact
 * reference when the caller stored it as an artifact.
 * @example await pipeline.fire("post_tool_call", ctx, { tool_result: report, tool_name: "search" })
 */
export class ToolResultOffloader extends ContextProcessor<ToolResultPayload> {
  readonly maxSize: number;
  readonly headSize: number;
  private readonly createHandle: HandleFactory;

  constructor(options: ToolResultOffloaderOptions = {}) {
    super("post_tool_call", { name: options.name ?? "tool_result_offloader" });
    this.maxSize = options.maxSize ?? 5_000;
    this.headSize = options.headSize ?? Math.min(1_000, Math.max(1, Math.floor(this.maxSize / 5)));
    this.createHandle = options.createHandle ?? contentHandle;
  }

  process(ctx: Context, payload: ToolResultPayload): ProcessorResult {
    const result = payload.tool_result;
    if (typeof result !== "string") return {};
    if (!payload.large_output && !exceedsCharacters(result, this.maxSize)) return {};
    const existing = ctx.state.get(STATE_KEYS.offloadedResults) ?? {};
    const handle = this.createHandle(result, (candidate) => existing[candidate] !== undefined && existing[candidate] !== result);
    ctx.state.set(STATE_KEYS.offloadedResults, { ...existing, [handle]: result });
    const tool = payload.tool_name ? ` of ${payload.tool_name}` : "";
    const size = countCharacters(result);
    payload.offload_handle = handle;
    payload.tool_result = payload.artifact_id
      ? `[Result${tool} stored as artifact ${payload.artifact_id}: ${size} characters. ${offloadMarker(handle)} — call reload_offloaded to read it.]`
      : `${firstCharacters(result, this.headSize)}\n…\n[Result${tool} truncated: showing ${Math.min(this.headSize, size)} of ${size} characters. ${offloadMarker(handle)} — call reload_offloaded to read it all.]`;
    return { effects: [{ kind: "truncated", before: [], after: [], handle, note: `${size} characters` }] };
  }
}
