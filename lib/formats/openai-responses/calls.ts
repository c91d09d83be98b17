/**
 * Responses items the client runs and answers (F-R3 in SPEC.md): each becomes a
 * canonical tool call and its output a tool message, so the engine's tool
 * pairing holds for them as for function calls. What the canonical call has
 * no field for is kept by call id and put back.
 */

/** How one kind of client-run call item maps onto a canonical tool call. */
export interface CallKind {
  /** The item type of its answer. */
  output: string;
  /** The field holding its input: a string kept as is, an object kept as JSON text. */
  argument: string;
  /** The tool name when the item carries none. */
  name?: string;
}

export const CALL_KINDS: Readonly<Record<string, CallKind>> = {
  function_call: { output: "function_call_output", argument: "arguments" },
  custom_tool_call: { output: "custom_tool_call_output", argument: "input" },
  computer_call: { output: "computer_call_output", argument: "action", name: "computer" },
  local_shell_call: { output: "local_shell_call_output", argument: "action", name: "local_shell" },
  shell_call: { output: "shell_call_output", argument: "action", name: "shell" },
  apply_patch_call: { output: "apply_patch_call_output", argument: "operation", name: "apply_patch" },
};

/** Item types that answer a client-run call. */
export const OUTPUT_KINDS: ReadonlySet<string> = new Set(Object.values(CALL_KINDS).map((kind) => kind.output));
