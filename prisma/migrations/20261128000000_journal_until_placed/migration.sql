-- A journaled call's row stays only until the call is placed: its Exchange then holds the
-- request (as a delta), the answer and the rest, so the journal no longer stores every
-- call's whole request a second time. Rows already placed go now.
DELETE FROM "ProxyCall" WHERE "placedAt" IS NOT NULL;

-- DropIndex
DROP INDEX "ProxyCall_placedAt_createdAt_idx";

-- AlterTable
ALTER TABLE "ProxyCall" DROP COLUMN "placedAt";

-- CreateIndex
CREATE INDEX "ProxyCall_createdAt_idx" ON "ProxyCall"("createdAt");
