-- A conversation keeps what its source said of the session (agent, version, cwd, git branch, session id),
-- a key to find the session again on re-import, and a subagent's link to the call that started it.

-- AlterTable
ALTER TABLE "Conversation" ADD COLUMN     "origin" TEXT,
ADD COLUMN     "parentCallId" TEXT,
ADD COLUMN     "parentId" TEXT,
ADD COLUMN     "sessionKey" TEXT;

-- CreateIndex
CREATE INDEX "Conversation_sessionKey_idx" ON "Conversation"("sessionKey");

-- CreateIndex
CREATE INDEX "Conversation_parentId_idx" ON "Conversation"("parentId");

-- AddForeignKey
ALTER TABLE "Conversation" ADD CONSTRAINT "Conversation_parentId_fkey" FOREIGN KEY ("parentId") REFERENCES "Conversation"("id") ON DELETE SET NULL ON UPDATE CASCADE;

