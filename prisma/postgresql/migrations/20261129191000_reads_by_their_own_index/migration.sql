-- Every read of one Order, one Connection or one outcome, oldest or newest first, through an
-- index that holds what it asks for and then the time and id: the activity, payment events and
-- mails of an Order page, and the held events of a Connection. Once the activity log and the
-- event inbox were indexed by (Store, time, id), SQLite preferred walking those in order, the
-- whole log of the Store for a few rows, over an index that left the id to sort. The mails of
-- an Order had no index at all.

-- DropIndex
DROP INDEX "audit_entries_storeId_targetId_createdAt_idx";

-- DropIndex
DROP INDEX "provider_events_storeId_orderId_idx";

-- DropIndex
DROP INDEX "provider_events_storeId_otherOrderId_idx";

-- DropIndex
DROP INDEX "provider_events_storeId_outcome_receivedAt_idx";

-- DropIndex
DROP INDEX "provider_events_connectionId_outcome_receivedAt_idx";

-- CreateIndex
CREATE INDEX "audit_entries_storeId_targetId_createdAt_id_idx" ON "audit_entries"("storeId", "targetId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "provider_events_storeId_orderId_receivedAt_id_idx" ON "provider_events"("storeId", "orderId", "receivedAt", "id");

-- CreateIndex
CREATE INDEX "provider_events_storeId_otherOrderId_receivedAt_id_idx" ON "provider_events"("storeId", "otherOrderId", "receivedAt", "id");

-- CreateIndex
CREATE INDEX "provider_events_storeId_outcome_receivedAt_id_idx" ON "provider_events"("storeId", "outcome", "receivedAt", "id");

-- CreateIndex
CREATE INDEX "provider_events_connectionId_outcome_receivedAt_id_idx" ON "provider_events"("connectionId", "outcome", "receivedAt", "id");

-- CreateIndex
CREATE INDEX "outbox_mail_storeId_subjectId_createdAt_id_idx" ON "outbox_mail"("storeId", "subjectId", "createdAt", "id");
