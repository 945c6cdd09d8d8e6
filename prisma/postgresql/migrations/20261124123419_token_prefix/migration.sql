-- AlterTable
ALTER TABLE "ApiToken" ADD COLUMN     "prefix" TEXT NOT NULL DEFAULT '';

