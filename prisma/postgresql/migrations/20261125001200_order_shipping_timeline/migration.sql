-- AlterTable
ALTER TABLE "orders" ADD COLUMN     "carrier" TEXT,
ADD COLUMN     "shippedAt" TIMESTAMP(3),
ADD COLUMN     "trackingNumber" TEXT;

-- CreateIndex
CREATE INDEX "audit_entries_storeId_targetId_createdAt_idx" ON "audit_entries"("storeId", "targetId", "createdAt");

