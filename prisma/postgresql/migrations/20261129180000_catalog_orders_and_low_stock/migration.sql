-- The catalog in each order (newest, price either way, name) with the id that breaks ties in the
-- index as well: a page, and the entries a deep page skips, come in index order with no sort.
-- The low-stock list of Store Admin and its count read the low variants only, by (Store, stock).

-- DropIndex
DROP INDEX "products_storeId_status_createdAt_idx";

-- DropIndex
DROP INDEX "products_storeId_status_priceMinor_idx";

-- DropIndex
DROP INDEX "products_storeId_status_title_idx";

-- CreateIndex
CREATE INDEX "products_storeId_status_createdAt_id_idx" ON "products"("storeId", "status", "createdAt", "id");

-- CreateIndex
CREATE INDEX "products_storeId_status_priceMinor_id_idx" ON "products"("storeId", "status", "priceMinor", "id");

-- CreateIndex
CREATE INDEX "products_storeId_status_title_id_idx" ON "products"("storeId", "status", "title", "id");

-- CreateIndex
CREATE INDEX "product_variants_storeId_stock_productId_idx" ON "product_variants"("storeId", "stock", "productId");

