-- AlterTable
ALTER TABLE "Entry" ADD COLUMN "editedBy" TEXT;

