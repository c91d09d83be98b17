-- CreateTable
CREATE TABLE "Policy" (
    "id" TEXT NOT NULL,
    "conversationId" TEXT,
    "name" TEXT NOT NULL,
    "policy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Policy_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Policy_conversationId_name_idx" ON "Policy"("conversationId", "name");

-- AddForeignKey
ALTER TABLE "Policy" ADD CONSTRAINT "Policy_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "Conversation"("id") ON DELETE CASCADE ON UPDATE CASCADE;
