-- The products list of Store Admin (last changed first) and its customers (newest first) with the
-- id that breaks ties in the index: a bulk edit or import gives thousands of rows one time, and
-- a page then sorted all of them.

-- DropIndex
DROP INDEX "users_storeId_role_createdAt_idx";

-- DropIndex
DROP INDEX "products_storeId_updatedAt_idx";

-- CreateIndex
CREATE INDEX "users_storeId_role_createdAt_id_idx" ON "users"("storeId", "role", "createdAt", "id");

-- CreateIndex
CREATE INDEX "products_storeId_updatedAt_id_idx" ON "products"("storeId", "updatedAt", "id");

