import { defaultPipelineSpec } from "@/lib/context";

/** A tool result of `size` characters with `code` in its middle, where no summary's first lines reach. */
export function bigResult(label: string, code: string, size: number): string {
  const filler = `${label} flight row; `.repeat(Math.ceil(size / (label.length + 14)));
  const half = Math.floor((size - code.length - 2) / 2);
  return `${filler.slice(0, half)} ${code} ${filler.slice(0, size - half - code.length - 2)}`;
}

/**
 * Settings that offload messages over 2,000 characters (older rounds only), with the pipeline
 * applied; the dialogue compressor and the summariser are off so the older result stays a
 * marker the model can reload, and no result is truncated when it is recorded.
 */
export const OFFLOADING = {
  applyPipeline: true,
  maxMessageSize: 2_000,
  maxToolResultSize: 20_000,
  offloadThreshold: 0,
  processors: defaultPipelineSpec().map((entry) => ({
    ...entry,
    enabled: !["dialogue_compressor", "summarize", "tool_result_offloader"].includes(entry.kind),
  })),
};
