-- A conversation keeps what its source said of the session (agent, version, cwd, git branch, session id),
-- a key to find the session again on re-import, and a subagent's link to the call that started it.
-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Conversation" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "title" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "settings" TEXT NOT NULL DEFAULT '{}',
    "tools" TEXT,
    "recordKey" TEXT,
    "origin" TEXT,
    "sessionKey" TEXT,
    "parentId" TEXT,
    "parentCallId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Conversation_parentId_fkey" FOREIGN KEY ("parentId") REFERENCES "Conversation" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_Conversation" ("createdAt", "id", "recordKey", "settings", "source", "title", "tools", "updatedAt") SELECT "createdAt", "id", "recordKey", "settings", "source", "title", "tools", "updatedAt" FROM "Conversation";
DROP TABLE "Conversation";
ALTER TABLE "new_Conversation" RENAME TO "Conversation";
CREATE UNIQUE INDEX "Conversation_recordKey_key" ON "Conversation"("recordKey");
CREATE INDEX "Conversation_updatedAt_idx" ON "Conversation"("updatedAt");
CREATE INDEX "Conversation_sessionKey_idx" ON "Conversation"("sessionKey");
CREATE INDEX "Conversation_parentId_idx" ON "Conversation"("parentId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

