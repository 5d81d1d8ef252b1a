-- Store Admin's activity log and payment events, newest first, paged by keys (the time and the
-- id of the entry at a page's edge): the index ends in the id, so a page starts at its key and
-- entries written in the same millisecond are not sorted.

-- DropIndex
DROP INDEX "audit_entries_storeId_createdAt_idx";

-- DropIndex
DROP INDEX "provider_events_storeId_receivedAt_idx";

-- CreateIndex
CREATE INDEX "audit_entries_storeId_createdAt_id_idx" ON "audit_entries"("storeId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "provider_events_storeId_receivedAt_id_idx" ON "provider_events"("storeId", "receivedAt", "id");
