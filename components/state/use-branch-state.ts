"use client";

import type { ApiClient } from "@/lib/client";
import { useApi, type ApiState } from "@/lib/client/hooks";
import type { BranchStateData } from "./state-model";

/**
 * Everything stored the branch sees (own and inherited) and its ancestry, in
 * one load; null `branchId` loads nothing. A new `revision` loads again.
 */
export function useBranchState(client: ApiClient, branchId: string | null, revision = 0): ApiState<BranchStateData> {
  return useApi(
    branchId === null
      ? null
      : async (signal) => {
          const request = { signal };
          const [detail, summaries, checkpoints, offloaded, artifacts] = await Promise.all([
            client.getBranch(branchId, request),
            client.listSummaries(branchId, request),
            client.listCheckpoints(branchId, request),
            client.listOffloaded(branchId, request),
            client.listArtifacts(branchId, request),
          ]);
          return { ancestry: detail.ancestry, summaries, checkpoints, offloaded, artifacts };
        },
    [client, branchId, revision],
  );
}
