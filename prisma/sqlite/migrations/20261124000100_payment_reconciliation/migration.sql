-- What was captured when an Order became paid: refunds never add up to more (docs/decisions/029).
ALTER TABLE "orders" ADD COLUMN "capturedMinor" INTEGER NOT NULL DEFAULT 0;

-- Orders paid before this migration: their total is the best record of what was captured.
UPDATE "orders" SET "capturedMinor" = "totalMinor" WHERE "paidAt" IS NOT NULL;

-- Events held for a reference, the second Order of a conflict, and the body as exact bytes
-- (the CAST stores the existing bodies as BLOBs, not as TEXT in a BLOB column).
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_provider_events" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "storeId" TEXT NOT NULL,
    "connectionId" TEXT NOT NULL,
    "providerEventId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "orderId" TEXT,
    "otherOrderId" TEXT,
    "outcome" TEXT NOT NULL,
    "awaitingRef" TEXT,
    "summary" TEXT NOT NULL,
    "occurredAt" DATETIME NOT NULL,
    "receivedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "payload" BLOB NOT NULL,
    "duplicates" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "provider_events_storeId_fkey" FOREIGN KEY ("storeId") REFERENCES "stores" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "provider_events_connectionId_fkey" FOREIGN KEY ("connectionId") REFERENCES "connections" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_provider_events" ("connectionId", "duplicates", "id", "occurredAt", "orderId", "outcome", "payload", "providerEventId", "receivedAt", "storeId", "summary", "type") SELECT "connectionId", "duplicates", "id", "occurredAt", "orderId", "outcome", CAST("payload" AS BLOB), "providerEventId", "receivedAt", "storeId", "summary", "type" FROM "provider_events";
DROP TABLE "provider_events";
ALTER TABLE "new_provider_events" RENAME TO "provider_events";
CREATE INDEX "provider_events_storeId_receivedAt_idx" ON "provider_events"("storeId", "receivedAt");
CREATE INDEX "provider_events_storeId_orderId_idx" ON "provider_events"("storeId", "orderId");
CREATE INDEX "provider_events_storeId_otherOrderId_idx" ON "provider_events"("storeId", "otherOrderId");
CREATE INDEX "provider_events_connectionId_awaitingRef_idx" ON "provider_events"("connectionId", "awaitingRef");
CREATE UNIQUE INDEX "provider_events_connectionId_providerEventId_key" ON "provider_events"("connectionId", "providerEventId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

