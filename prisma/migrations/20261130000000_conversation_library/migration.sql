-- The conversation library: per-conversation counts to sort by, and a search index of words (searched
-- through the index on "term", which also holds the conversation), both kept up to date by lib/db when conversations and messages are written.

-- CreateTable
CREATE TABLE "LibraryEntry" (
    "conversationId" TEXT NOT NULL PRIMARY KEY,
    "messageCount" INTEGER NOT NULL DEFAULT 0,
    "tokens" INTEGER NOT NULL DEFAULT 0,
    "indexed" BOOLEAN NOT NULL DEFAULT true,
    CONSTRAINT "LibraryEntry_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "Conversation" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "SearchTerm" (
    "conversationId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "term" TEXT NOT NULL,

    PRIMARY KEY ("conversationId", "term", "kind"),
    CONSTRAINT "SearchTerm_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "Conversation" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "LibraryEntry_messageCount_idx" ON "LibraryEntry"("messageCount");

-- CreateIndex
CREATE INDEX "LibraryEntry_tokens_idx" ON "LibraryEntry"("tokens");

-- CreateIndex
CREATE INDEX "LibraryEntry_indexed_idx" ON "LibraryEntry"("indexed");

-- CreateIndex
CREATE INDEX "SearchTerm_term_conversationId_idx" ON "SearchTerm"("term", "conversationId");


-- Conversations stored before the library: their counts now, their search terms written by scripts/index-library.ts.
INSERT INTO "LibraryEntry" ("conversationId", "messageCount", "tokens", "indexed")
SELECT c."id",
       (SELECT COUNT(*) FROM "Message" m JOIN "Branch" b ON b."id" = m."branchId" WHERE b."conversationId" = c."id"),
       (SELECT COALESCE(SUM(m."tokens"), 0) FROM "Message" m JOIN "Branch" b ON b."id" = m."branchId" WHERE b."conversationId" = c."id"),
       false
FROM "Conversation" c;
