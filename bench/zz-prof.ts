import { callPoints, comparePolicies, presetPolicy } from "@/lib/context";
import { buildConversation } from "./corpus";
let messages = buildConversation(420);
messages = messages.slice(0, callPoints(messages)[199] + 1);
const policies = [
  { id: "observation_masking", label: "m", policy: presetPolicy("observation_masking") },
  { id: "clear_tool_uses", label: "c", policy: { ...presetPolicy("clear_tool_uses"), tuning: { clear_tool_uses: { triggerTokens: 8_000, keepToolUses: 3 } } } },
  { id: "navigator", label: "n", policy: presetPolicy("navigator") },
];
for (let i = 0; i < 3; i++) {
  const fresh = messages.map((m) => ({ ...m }));
  const cpu = process.cpuUsage();
  await comparePolicies({ messages: fresh, policies, keepMessages: false, prices: { input: 1, output: 1 } });
  const u = process.cpuUsage(cpu);
  console.log("cold cpu", (u.user + u.system) / 1000);
  const cpu2 = process.cpuUsage();
  await comparePolicies({ messages: fresh, policies, keepMessages: false, prices: { input: 1, output: 1 } });
  const u2 = process.cpuUsage(cpu2);
  console.log("warm cpu", (u2.user + u2.system) / 1000);
}
