export { replayConversation, callPoints, sumTotals } from "./replay";
export { comparePolicies, MAX_COMPARED_POLICIES } from "./compare";
export { policySnippet, policyLiteral, ENGINE_PACKAGE_NAME } from "./snippet";
export { mentionsOf, type Mention } from "./mentions";
