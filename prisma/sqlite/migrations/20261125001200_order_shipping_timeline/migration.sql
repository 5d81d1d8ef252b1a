-- AlterTable
ALTER TABLE "orders" ADD COLUMN "carrier" TEXT;
ALTER TABLE "orders" ADD COLUMN "shippedAt" DATETIME;
ALTER TABLE "orders" ADD COLUMN "trackingNumber" TEXT;

-- CreateIndex
CREATE INDEX "audit_entries_storeId_targetId_createdAt_idx" ON "audit_entries"("storeId", "targetId", "createdAt");

