// Policies as values (PO-1–PO-3): the policy part of a conversation's settings,
// taken out, put back and compared field by field. Isomorphic.
export { policySchema, policyNameSchema, POLICY_FIELDS, RECORDING_FIELDS, type Policy, type PolicyField } from "./schema";
export { diffPolicies, policyOfPreset, policyOfSettings, readStoredPolicy, settingsWithPolicy, type PolicyDifference } from "./policy";
export { exportPolicy, fileStem, POLICY_EXPORT_FORMATS, type PolicyExportFormat } from "./export";
export { CODE_TARGETS, CODE_TARGET_INFO, exportPolicyCode, policyCode, type CodeTarget, type PolicyCode } from "./code";
