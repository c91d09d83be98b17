import { apiPath, sendRequest, type RequestOptions, type RequestTransportOptions } from "./request";
import type { CallDetail, CallPage } from "@/lib/calls/types";
import type { LibraryQuery } from "@/lib/library/query";
import type { BranchOpening } from "@/lib/playground/page-result";
import type {
  AppendMessagesInput,
  ArtifactEntry,
  ArtifactRecord,
  BranchDetail,
  BranchRecord,
  BranchTreeNode,
  CheckpointDiff,
  CheckpointEntry,
  CheckpointRecord,
  CompactInput,
  CompactResult,
  ConversationDetail,
  ConversationList,
  ConversationRecord,
  CreateConversationInput,
  CreatedConversation,
  ForkInput,
  HealthResult,
  HistoryRange,
  ImportConversationsResult,
  ImportOptions,
  MemorySnapshot,
  ModelCatalogue,
  ModelEntry,
  ModelEntryInput,
  PromptResponse,
  AssemblePromptInput,
  MessagePage,
  MessageRecord,
  OffloadedContentRecord,
  OffloadedEntry,
  ImportSessionResult,
  PolicyDiff,
  PromptPreviewInput,
  SavedPolicy,
  SavePolicyInput,
  UpdatePolicyInput,
  RecordMessagesResult,
  SearchResult,
  SessionOverview,
  ConversationCost,
  SummaryEntry,
  UpdateConversationInput,
} from "./types";

export type ApiClientOptions = RequestTransportOptions;

/**
 * A typed client for every endpoint of the playground's HTTP API. Each
 * method resolves to the stored DTOs and rejects with an `ApiError`.
 * @example const client = createApiClient(); const { branches } = await client.getConversation(id);
 */
export function createApiClient(options: ApiClientOptions = {}) {
  const transport: RequestTransportOptions = { baseUrl: options.baseUrl, fetch: options.fetch };
  const get = <T>(path: string, request: RequestOptions & { query?: Record<string, string | number | boolean | undefined>; answer?: "json" | "text" } = {}) =>
    sendRequest<T>(transport, { method: "GET", path, ...request });
  const send = <T>(method: "POST" | "PUT" | "PATCH" | "DELETE", path: string, json: unknown, request: RequestOptions = {}) =>
    sendRequest<T>(transport, { method, path, json, ...request });

  return {
    health: (request?: RequestOptions) => get<HealthResult>("/api/health", request),
    /** The model catalogue: built-in entries with the users' over them. */
    listModels: (request?: RequestOptions) => get<ModelCatalogue>("/api/models", request),
    /** Adds a model, or replaces an entry (a built-in one until the user's is deleted). */
    saveModel: async (id: string, entry: ModelEntryInput, request?: RequestOptions) =>
      (await send<{ model: ModelEntry }>("PUT", apiPath`/api/models/${id}`, entry, request)).model,
    deleteModel: async (id: string, request?: RequestOptions): Promise<void> => {
      await send<undefined>("DELETE", apiPath`/api/models/${id}`, undefined, request);
    },

    /** Saves pasted or dropped text as one conversation per conversation it holds. */
    importConversations: (text: string, options: ImportOptions = {}, request: RequestOptions = {}) =>
      sendRequest<ImportConversationsResult>(transport, {
        method: "POST",
        path: "/api/conversations/import",
        text,
        query: { filename: options.filename, format: options.format, title: options.title, conversation: options.conversation },
        ...request,
      }),
    /** One page of the library: search, filters, sort (lib/library). */
    listConversations: (query: Partial<LibraryQuery> = {}, request: RequestOptions = {}) => get<ConversationList>("/api/conversations", { query, ...request }),
    createConversation: (input: CreateConversationInput, request?: RequestOptions) => send<CreatedConversation>("POST", "/api/conversations", input, request),
    getConversation: (conversationId: string, request?: RequestOptions) => get<ConversationDetail>(apiPath`/api/conversations/${conversationId}`, request),
    updateConversation: async (conversationId: string, changes: UpdateConversationInput, request?: RequestOptions) =>
      (await send<{ conversation: ConversationRecord }>("PATCH", apiPath`/api/conversations/${conversationId}`, changes, request)).conversation,
    deleteConversation: async (conversationId: string, request?: RequestOptions): Promise<void> => {
      await send<undefined>("DELETE", apiPath`/api/conversations/${conversationId}`, undefined, request);
    },
    /** The conversation's branch tree, roots first. */
    getBranchTree: async (conversationId: string, request?: RequestOptions) =>
      (await get<{ branches: BranchTreeNode[] }>(apiPath`/api/conversations/${conversationId}/branches`, request)).branches,

    /** A page of the conversation's recorded model calls, oldest first; `after` is the previous page's `nextCursor`. */
    listCalls: (conversationId: string, page: { after?: string; limit?: number; failed?: boolean } = {}, request: RequestOptions = {}) =>
      get<CallPage>(apiPath`/api/conversations/${conversationId}/calls`, { query: page, ...request }),
    /** One call: the body the agent sent, the body forwarded, the answer, and the previous call's messages. */
    getCall: (callId: string, request?: RequestOptions) => get<CallDetail>(apiPath`/api/calls/${callId}`, request),

    /** The conversation as an agent's session: origin, parent, subagents, compactions and reported usage. */
    getSessionOverview: (conversationId: string, branchId?: string, request: RequestOptions = {}) =>
      get<SessionOverview>(apiPath`/api/conversations/${conversationId}/overview`, { query: { branch: branchId }, ...request }),
    /** Every API call of the conversation and its subagents, priced as reported or as the cache model predicts, with why the cache broke and the timeline. */
    getConversationCost: (conversationId: string, options: { subagents?: boolean } = {}, request: RequestOptions = {}) =>
      get<ConversationCost>(apiPath`/api/conversations/${conversationId}/cost`, { query: { subagents: options.subagents }, ...request }),
    getBranch: (branchId: string, request?: RequestOptions) => get<BranchDetail>(apiPath`/api/branches/${branchId}`, request),
    /** What the workspace opens a branch with: the branch, its conversation, its first screen and the server's first result. */
    openBranch: (branchId: string, request?: RequestOptions) => get<BranchOpening>(apiPath`/api/branches/${branchId}/opening`, request),
    /** The branch's full history (inherited and own), or the `[from, to)` slice of it, read page by page. */
    getMessages: async (branchId: string, range: HistoryRange = {}, request: RequestOptions = {}) => {
      const messages: MessageRecord[] = [];
      let from: number | null | undefined = range.from;
      do {
        const page: MessagePage = await get<MessagePage>(apiPath`/api/branches/${branchId}/messages`, { query: { from, to: range.to }, ...request });
        messages.push(...page.messages);
        // A server without pages (or an older one) sends no cursor: that was the whole range.
        from = page.next ?? null;
      } while (from !== null);
      return messages;
    },
    /** The branch's persisted memory as the request builder reads it: summary chain, covered system messages, artifact outlines. */
    getMemory: (branchId: string, request?: RequestOptions) => get<MemorySnapshot>(apiPath`/api/branches/${branchId}/memory`, request),
    /** Records a turn: large tool results become artifacts, and the branch compacts when due. */
    appendMessages: (branchId: string, input: AppendMessagesInput, request?: RequestOptions) =>
      send<RecordMessagesResult>("POST", apiPath`/api/branches/${branchId}/messages`, input, request),
    /** A new branch inheriting the first `position` messages of this one; the parent is unchanged. */
    forkBranch: async (branchId: string, input: ForkInput, request?: RequestOptions) =>
      (await send<{ branch: BranchRecord }>("POST", apiPath`/api/branches/${branchId}/fork`, input, request)).branch,

    /** Own and inherited checkpoints, root first. */
    listCheckpoints: async (branchId: string, request?: RequestOptions) =>
      (await get<{ checkpoints: CheckpointEntry[] }>(apiPath`/api/branches/${branchId}/checkpoints`, request)).checkpoints,
    getCheckpoint: async (checkpointId: string, request?: RequestOptions) =>
      (await get<{ checkpoint: CheckpointRecord }>(apiPath`/api/checkpoints/${checkpointId}`, request)).checkpoint,
    diffCheckpoints: (fromId: string, toId: string, request: RequestOptions = {}) =>
      get<CheckpointDiff>("/api/checkpoints/diff", { query: { from: fromId, to: toId }, ...request }),
    /** Runs compaction now; `force` checkpoints even below the thresholds. */
    compactBranch: (branchId: string, input: CompactInput = {}, request?: RequestOptions) =>
      send<CompactResult>("POST", apiPath`/api/branches/${branchId}/compact`, input, request),

    listOffloaded: async (branchId: string, request?: RequestOptions) =>
      (await get<{ offloaded: OffloadedEntry[] }>(apiPath`/api/branches/${branchId}/offloaded`, request)).offloaded,
    /** The exact content behind a handle, as `reload_offloaded` gives it to the agent. */
    getOffloadedContent: async (branchId: string, handle: string, request?: RequestOptions) =>
      (await get<{ offloaded: OffloadedContentRecord }>(apiPath`/api/branches/${branchId}/offloaded/${handle}`, request)).offloaded,
    /** The summary chain the branch sees, oldest first. */
    listSummaries: async (branchId: string, request?: RequestOptions) =>
      (await get<{ summaries: SummaryEntry[] }>(apiPath`/api/branches/${branchId}/summaries`, request)).summaries,
    listArtifacts: async (branchId: string, request?: RequestOptions) =>
      (await get<{ artifacts: ArtifactEntry[] }>(apiPath`/api/branches/${branchId}/artifacts`, request)).artifacts,
    getArtifact: async (branchId: string, artifactId: string, request?: RequestOptions) =>
      (await get<{ artifact: ArtifactRecord }>(apiPath`/api/branches/${branchId}/artifacts/${artifactId}`, request)).artifact,

    /**
     * The next request the branch would send, never writing: GET, or POST
     * with `compact: false` when unsaved settings or tools are previewed.
     */
    previewPrompt: (branchId: string, input: PromptPreviewInput = {}, request: RequestOptions = {}) => {
      const userTurn = input.userTurn === "" ? undefined : input.userTurn;
      if (input.settings === undefined && input.tools === undefined) {
        return get<PromptResponse>(apiPath`/api/branches/${branchId}/prompt`, { query: { userTurn }, ...request });
      }
      return send<PromptResponse>("POST", apiPath`/api/branches/${branchId}/prompt`, { ...input, userTurn, compact: false }, request);
    },
    /** Assembles the next request for real: compaction may run and persist first unless `compact: false`. */
    assemblePrompt: (branchId: string, input: AssemblePromptInput = {}, request?: RequestOptions) =>
      send<PromptResponse>("POST", apiPath`/api/branches/${branchId}/prompt`, input, request),
    /** BM25 over the summaries and artifact summaries the branch sees, best first. */
    search: async (branchId: string, query: string, options: { limit?: number } = {}, request: RequestOptions = {}) =>
      (await get<SearchResult>(apiPath`/api/branches/${branchId}/search`, { query: { q: query, limit: options.limit }, ...request })).hits,
    /** The global policies, and with a conversation id its own too. */
    listPolicies: async (conversationId?: string, request: RequestOptions = {}) =>
      (await get<{ policies: SavedPolicy[] }>("/api/policies", { query: { conversationId }, ...request })).policies,
    savePolicy: async (input: SavePolicyInput, request?: RequestOptions) =>
      (await send<{ policy: SavedPolicy }>("POST", "/api/policies", input, request)).policy,
    updatePolicy: async (policyId: string, changes: UpdatePolicyInput, request?: RequestOptions) =>
      (await send<{ policy: SavedPolicy }>("PATCH", apiPath`/api/policies/${policyId}`, changes, request)).policy,
    deletePolicy: async (policyId: string, request?: RequestOptions): Promise<void> => {
      await send<null>("DELETE", apiPath`/api/policies/${policyId}`, undefined, request);
    },
    /** A conversation's whole session as the text of its file (JSON lines); `requests: "omitted"` leaves the calls' request bodies out. */
    exportSession: (conversationId: string, options: { requests?: "delta" | "omitted" } = {}, request: RequestOptions = {}) =>
      get<string>(apiPath`/api/sessions/${conversationId}`, { query: { requests: options.requests }, answer: "text", ...request }),
    /** Imports a session file's text (either version): every row as exported. */
    importSession: (text: string, request: RequestOptions = {}) =>
      sendRequest<ImportSessionResult>(transport, { method: "POST", path: "/api/sessions", text, ...request }),
    diffPolicies: (fromId: string, toId: string, request: RequestOptions = {}) =>
      get<PolicyDiff>("/api/policies/diff", { query: { from: fromId, to: toId }, ...request }),
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;

/** The browser's client: same origin, global fetch. */
export const apiClient: ApiClient = createApiClient();
