-- AlterTable
ALTER TABLE "provider_events" ADD COLUMN     "applyAttempts" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE INDEX "provider_events_storeId_outcome_receivedAt_idx" ON "provider_events"("storeId", "outcome", "receivedAt");

-- CreateIndex
CREATE INDEX "provider_events_connectionId_outcome_receivedAt_idx" ON "provider_events"("connectionId", "outcome", "receivedAt");

