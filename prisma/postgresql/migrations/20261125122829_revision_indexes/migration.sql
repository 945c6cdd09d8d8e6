-- DropIndex
DROP INDEX "Revision_accountId_recordType_recordId_number_idx";

-- DropIndex
DROP INDEX "Revision_createdAt_idx";

