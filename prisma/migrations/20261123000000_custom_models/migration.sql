-- CreateTable
CREATE TABLE "CustomModel" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "entry" TEXT NOT NULL,
    "updatedAt" DATETIME NOT NULL
);

