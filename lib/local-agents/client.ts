import { sendRequest, type RequestTransportOptions } from "@/lib/client/request";
import type { FollowStatus, LocalAgentsList } from "./types";

/** What an import of a session file answers. */
export interface LocalImportResponse {
  conversationIds: string[];
  format: string;
  bytes: number;
  messageCount: number;
}

export interface FollowResponse extends LocalImportResponse {
  follow: FollowStatus;
}

/** The Local agents endpoints, for the page and the workspace's follow indicator. */
export function createLocalAgentsClient(transport: RequestTransportOptions = {}) {
  return {
    list: (signal?: AbortSignal) => sendRequest<LocalAgentsList>(transport, { method: "GET", path: "/api/local-agents", signal }),
    importSession: (path: string) => sendRequest<LocalImportResponse>(transport, { method: "POST", path: "/api/local-agents/import", json: { path } }),
    follow: (path: string) => sendRequest<FollowResponse>(transport, { method: "POST", path: "/api/local-agents/follow", json: { path } }),
    followOf: (conversationId: string, signal?: AbortSignal) =>
      sendRequest<{ follow: FollowStatus | null }>(transport, {
        method: "GET",
        path: "/api/local-agents/follow",
        query: { conversation: conversationId },
        signal,
      }),
    unfollow: (target: { path?: string; conversationId?: string }) =>
      sendRequest<{ stopped: FollowStatus[] }>(transport, { method: "POST", path: "/api/local-agents/unfollow", json: target }),
  };
}

export type LocalAgentsClient = ReturnType<typeof createLocalAgentsClient>;

export const localAgentsClient: LocalAgentsClient = createLocalAgentsClient();
