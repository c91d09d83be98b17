-- CreateTable
CREATE TABLE "CustomModel" (
    "id" TEXT NOT NULL,
    "entry" TEXT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CustomModel_pkey" PRIMARY KEY ("id")
);

