export { buildRequest, type BuildRequestOptions, type BuiltRequest, type RequestAssembly } from "./build";
export { keepsMemory, policyCounter, policyToEngine, type RequestPolicy } from "./policy";
export {
  coveredBySummary,
  positionsLabel,
  retrievedMessage,
  summaryMessage,
  type PersistedMemory,
  type PersistedSummary,
  type RetrievedMemory,
} from "./memory";
export { requestSections, type RequestSection, type RequestSectionKind } from "./sections";
export { budgetVerdict, isUserSystemMessage, requestTokens, type BudgetVerdict, type MessageTokens, type RequestTokens } from "./verdict";
