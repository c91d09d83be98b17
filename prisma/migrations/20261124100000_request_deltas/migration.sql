-- AlterTable
ALTER TABLE "Exchange" ADD COLUMN "requestBaseId" TEXT;
