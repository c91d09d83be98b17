import type { ChatCompletionTool } from "openai/resources/chat/completions";

/** The system prompt and the one tool of the scripted airline agent the live specs drive. */
export const AIRLINE_SYSTEM = "You are an airline support agent. Use the tools to look reservations up.";

export const AIRLINE_TOOLS: ChatCompletionTool[] = [
  {
    type: "function",
    function: {
      name: "get_reservation_details",
      description: "Get the details of a reservation.",
      parameters: { type: "object", properties: { reservation_id: { type: "string" } }, required: ["reservation_id"] },
    },
  },
];
