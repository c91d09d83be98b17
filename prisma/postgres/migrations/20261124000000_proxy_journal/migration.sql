-- CreateTable
CREATE TABLE "ProxyCall" (
    "id" TEXT NOT NULL,
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
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "endedAt" TIMESTAMP(3),
    "placedAt" TIMESTAMP(3),

    CONSTRAINT "ProxyCall_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ProxyCall_placedAt_createdAt_idx" ON "ProxyCall"("placedAt", "createdAt");
