import { handleChatCompletions, proxyRoute } from "@/lib/proxy";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = proxyRoute("POST", handleChatCompletions);
