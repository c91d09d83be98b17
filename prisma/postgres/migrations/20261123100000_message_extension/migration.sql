-- AlterTable
ALTER TABLE "Message" ADD COLUMN     "extension" TEXT;
