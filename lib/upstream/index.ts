import "server-only";

// The client to models (README.md): the proxy, the chat recorder and the browser use it.
export {
  resolveUpstream,
  resolveAnthropicUpstream,
  describeUpstream,
  saveUpstreamSettings,
  normalizeBaseUrl,
  upstreamSettingsFile,
  DEFAULT_UPSTREAM_TIMEOUT_MS,
  type UpstreamConfig,
  type UpstreamSettingsView,
  type AnthropicUpstreamView,
  type UpstreamSettingsChanges,
} from "./settings";
export { CompletionAssembler, outcomeOfCompletion, type CompletionOutcome } from "./assemble";
export { SseParser, type SseMessage } from "./sse";
