-- CreateIndex
CREATE INDEX "WebhookDelivery_webhookId_recordId_status_idx" ON "WebhookDelivery"("webhookId", "recordId", "status");

