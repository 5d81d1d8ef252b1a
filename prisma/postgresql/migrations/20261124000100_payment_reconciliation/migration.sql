-- What was captured when an Order became paid: refunds never add up to more (docs/decisions/029).
ALTER TABLE "orders" ADD COLUMN     "capturedMinor" INTEGER NOT NULL DEFAULT 0;

-- Orders paid before this migration: their total is the best record of what was captured.
UPDATE "orders" SET "capturedMinor" = "totalMinor" WHERE "paidAt" IS NOT NULL;

-- Events held for a reference, the second Order of a conflict, and the body as exact bytes.
-- The generated script dropped and re-added "payload": converting keeps the stored bodies.
ALTER TABLE "provider_events" ADD COLUMN     "awaitingRef" TEXT,
ADD COLUMN     "otherOrderId" TEXT,
ALTER COLUMN "payload" TYPE BYTEA USING convert_to("payload", 'UTF8');

-- CreateIndex
CREATE INDEX "provider_events_storeId_orderId_idx" ON "provider_events"("storeId", "orderId");

-- CreateIndex
CREATE INDEX "provider_events_storeId_otherOrderId_idx" ON "provider_events"("storeId", "otherOrderId");

-- CreateIndex
CREATE INDEX "provider_events_connectionId_awaitingRef_idx" ON "provider_events"("connectionId", "awaitingRef");
