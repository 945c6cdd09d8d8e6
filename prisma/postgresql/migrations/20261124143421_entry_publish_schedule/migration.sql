-- CreateIndex
CREATE INDEX "Entry_published_publishedAt_idx" ON "Entry"("published", "publishedAt");

