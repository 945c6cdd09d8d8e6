-- CreateIndex
CREATE INDEX "Entry_accountId_collectionId_createdAt_id_idx" ON "Entry"("accountId", "collectionId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Entry_accountId_collectionId_published_position_createdAt_i_idx" ON "Entry"("accountId", "collectionId", "published", "position", "createdAt" DESC, "id");

-- CreateIndex
CREATE INDEX "Entry_accountId_collectionId_published_position_publishedAt_idx" ON "Entry"("accountId", "collectionId", "published", "position", "publishedAt", "id");

