/** The adapters the engine package ships, each as the subpath `@context-lab/engine/<name>` (AD-7). */
export const ADAPTER_NAMES = ["ai-sdk", "langchain", "openai-agents", "mastra", "openai", "anthropic"] as const;
export type AdapterName = (typeof ADAPTER_NAMES)[number];
