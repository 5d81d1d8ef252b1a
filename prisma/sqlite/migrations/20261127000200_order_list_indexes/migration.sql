-- Order pages read the lines of an Order by orderId, which had no index: each read scanned every line
-- sold. The account page of a Customer and the overview of Store Admin read their Orders in index
-- order instead of sorting every Order of the Store.
-- DropIndex
DROP INDEX "orders_storeId_userId_idx";

-- CreateIndex
CREATE INDEX "orders_storeId_userId_createdAt_idx" ON "orders"("storeId", "userId", "createdAt");

-- CreateIndex
CREATE INDEX "orders_storeId_status_paidAt_idx" ON "orders"("storeId", "status", "paidAt");

-- CreateIndex
CREATE INDEX "orders_storeId_paidAt_idx" ON "orders"("storeId", "paidAt");

-- CreateIndex
CREATE INDEX "order_lines_orderId_idx" ON "order_lines"("orderId");

