-- CreateTable
CREATE TABLE "ProxyCall" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "key" TEXT NOT NULL,
    "request" TEXT NOT NULL,
    "sent" TEXT,
    "details" TEXT,
    "streamed" BOOLEAN NOT NULL DEFAULT false,
    "response" TEXT,
    "status" INTEGER,
    "error" TEXT,
    "outcome" TEXT,
    "durationMs" INTEGER,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "endedAt" DATETIME,
    "placedAt" DATETIME
);

-- CreateIndex
CREATE INDEX "ProxyCall_placedAt_createdAt_idx" ON "ProxyCall"("placedAt", "createdAt");
