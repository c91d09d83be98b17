export { MessageOffloader, type MessageOffloaderOptions } from "./message-offloader";
export { ToolResultOffloader, type ToolResultOffloaderOptions, type ToolResultPayload } from "./tool-result-offloader";
export { DialogueCompressor, type DialogueCompressorOptions } from "./dialogue-compressor";
export { RoundWindowProcessor, type RoundWindowOptions } from "./round-window";
export { SummarizeProcessor, type SummarizeProcessorOptions } from "./summarize";
export { TokenBudgetProcessor, type TokenBudgetOptions, type TokenBudgetPayload, type ResolvedTokenBudget } from "./token-budget";
