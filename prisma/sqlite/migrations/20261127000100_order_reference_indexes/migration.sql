-- A provider event finds its Order by the references the store recorded, within its Store.
-- Indexed on the reference alone, the SQLite planner walked every Order of the Store instead
-- (through the storeId index) for each event. Indexed by Store and reference, each lookup is a search.

-- DropIndex
DROP INDEX "orders_providerRef_idx";

-- DropIndex
DROP INDEX "orders_paymentIntentRef_idx";

-- CreateIndex
CREATE INDEX "orders_storeId_providerRef_idx" ON "orders"("storeId", "providerRef");

-- CreateIndex
CREATE INDEX "orders_storeId_paymentIntentRef_idx" ON "orders"("storeId", "paymentIntentRef");

