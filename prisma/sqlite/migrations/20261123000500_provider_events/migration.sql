-- CreateTable
CREATE TABLE "provider_events" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "storeId" TEXT NOT NULL,
    "connectionId" TEXT NOT NULL,
    "providerEventId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "orderId" TEXT,
    "outcome" TEXT NOT NULL,
    "summary" TEXT NOT NULL,
    "occurredAt" DATETIME NOT NULL,
    "receivedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "payload" TEXT NOT NULL,
    "duplicates" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "provider_events_storeId_fkey" FOREIGN KEY ("storeId") REFERENCES "stores" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "provider_events_connectionId_fkey" FOREIGN KEY ("connectionId") REFERENCES "connections" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_orders" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "storeId" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "userId" TEXT,
    "guestId" TEXT,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "addressLine1" TEXT NOT NULL,
    "addressLine2" TEXT NOT NULL DEFAULT '',
    "city" TEXT NOT NULL,
    "postalCode" TEXT NOT NULL,
    "country" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "subtotalMinor" INTEGER NOT NULL,
    "totalMinor" INTEGER NOT NULL,
    "refundedMinor" INTEGER NOT NULL DEFAULT 0,
    "status" TEXT NOT NULL DEFAULT 'awaiting_payment',
    "paymentNote" TEXT,
    "connectionId" TEXT NOT NULL,
    "providerRef" TEXT,
    "paymentIntentRef" TEXT,
    "disputed" BOOLEAN NOT NULL DEFAULT false,
    "idempotencyKey" TEXT NOT NULL,
    "paidAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "orders_storeId_fkey" FOREIGN KEY ("storeId") REFERENCES "stores" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "orders_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "orders_connectionId_fkey" FOREIGN KEY ("connectionId") REFERENCES "connections" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
INSERT INTO "new_orders" ("addressLine1", "addressLine2", "city", "connectionId", "country", "createdAt", "currency", "email", "guestId", "id", "idempotencyKey", "name", "number", "paidAt", "paymentNote", "postalCode", "providerRef", "refundedMinor", "status", "storeId", "subtotalMinor", "tokenHash", "totalMinor", "updatedAt", "userId") SELECT "addressLine1", "addressLine2", "city", "connectionId", "country", "createdAt", "currency", "email", "guestId", "id", "idempotencyKey", "name", "number", "paidAt", "paymentNote", "postalCode", "providerRef", "refundedMinor", "status", "storeId", "subtotalMinor", "tokenHash", "totalMinor", "updatedAt", "userId" FROM "orders";
DROP TABLE "orders";
ALTER TABLE "new_orders" RENAME TO "orders";
CREATE UNIQUE INDEX "orders_tokenHash_key" ON "orders"("tokenHash");
CREATE INDEX "orders_storeId_userId_idx" ON "orders"("storeId", "userId");
CREATE INDEX "orders_storeId_guestId_idx" ON "orders"("storeId", "guestId");
CREATE INDEX "orders_providerRef_idx" ON "orders"("providerRef");
CREATE INDEX "orders_paymentIntentRef_idx" ON "orders"("paymentIntentRef");
CREATE UNIQUE INDEX "orders_storeId_number_key" ON "orders"("storeId", "number");
CREATE UNIQUE INDEX "orders_storeId_idempotencyKey_key" ON "orders"("storeId", "idempotencyKey");
CREATE TABLE "new_connections" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "storeId" TEXT NOT NULL,
    "handle" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "displayName" TEXT NOT NULL,
    "secretBox" TEXT,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "rejectedEvents" INTEGER NOT NULL DEFAULT 0,
    "lastRejectedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "connections_storeId_fkey" FOREIGN KEY ("storeId") REFERENCES "stores" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_connections" ("active", "createdAt", "displayName", "handle", "id", "provider", "secretBox", "storeId", "updatedAt") SELECT "active", "createdAt", "displayName", "handle", "id", "provider", "secretBox", "storeId", "updatedAt" FROM "connections";
DROP TABLE "connections";
ALTER TABLE "new_connections" RENAME TO "connections";
CREATE UNIQUE INDEX "connections_storeId_handle_key" ON "connections"("storeId", "handle");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "provider_events_storeId_receivedAt_idx" ON "provider_events"("storeId", "receivedAt");

-- CreateIndex
CREATE UNIQUE INDEX "provider_events_connectionId_providerEventId_key" ON "provider_events"("connectionId", "providerEventId");

