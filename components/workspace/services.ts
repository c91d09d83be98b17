import type { ApiClient } from "@/lib/client";
import type { PlaygroundServices } from "@/lib/store";

/** The store's API calls, made with the typed client. */
export function createPlaygroundServices(client: ApiClient): PlaygroundServices {
  return {
    async saveSettings(conversationId, settings) {
      await client.updateConversation(conversationId, { settings });
    },
    openBranch: (branchId) => client.openBranch(branchId),
    getBranchMessages: (branchId, range) => client.getMessages(branchId, range),
    getConversation: (conversationId) => client.getConversation(conversationId),
    getBranchMemory: (branchId) => client.getMemory(branchId),
    getBranchTree: (conversationId) => client.getBranchTree(conversationId),
    forkBranch: (branchId, position, name) => client.forkBranch(branchId, name ? { position, name } : { position }),
  };
}
