-- AlterTable
ALTER TABLE "orders" ADD COLUMN     "disputed" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "paymentIntentRef" TEXT;

-- AlterTable
ALTER TABLE "connections" ADD COLUMN     "lastRejectedAt" TIMESTAMP(3),
ADD COLUMN     "rejectedEvents" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "provider_events" (
    "id" TEXT NOT NULL,
    "storeId" TEXT NOT NULL,
    "connectionId" TEXT NOT NULL,
    "providerEventId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "orderId" TEXT,
    "outcome" TEXT NOT NULL,
    "summary" TEXT NOT NULL,
    "occurredAt" TIMESTAMP(3) NOT NULL,
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "payload" TEXT NOT NULL,
    "duplicates" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "provider_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "provider_events_storeId_receivedAt_idx" ON "provider_events"("storeId", "receivedAt");

-- CreateIndex
CREATE UNIQUE INDEX "provider_events_connectionId_providerEventId_key" ON "provider_events"("connectionId", "providerEventId");

-- CreateIndex
CREATE INDEX "orders_paymentIntentRef_idx" ON "orders"("paymentIntentRef");

-- AddForeignKey
ALTER TABLE "provider_events" ADD CONSTRAINT "provider_events_storeId_fkey" FOREIGN KEY ("storeId") REFERENCES "stores"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "provider_events" ADD CONSTRAINT "provider_events_connectionId_fkey" FOREIGN KEY ("connectionId") REFERENCES "connections"("id") ON DELETE CASCADE ON UPDATE CASCADE;

