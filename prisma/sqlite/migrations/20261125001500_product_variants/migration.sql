-- Products are sold as variants. Every existing Product becomes one variant ("var_" + its id)
-- holding its price and stock. Cart lines and Order lines point at it, so every cart and Order
-- reads as before.

-- CreateTable
CREATE TABLE "product_variants" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "storeId" TEXT NOT NULL,
    "productId" TEXT NOT NULL,
    "optionValues" TEXT NOT NULL DEFAULT '[]',
    "title" TEXT NOT NULL DEFAULT '',
    "sku" TEXT,
    "priceMinor" INTEGER NOT NULL,
    "stock" INTEGER NOT NULL DEFAULT 0,
    "imageKey" TEXT,
    "position" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "product_variants_productId_fkey" FOREIGN KEY ("productId") REFERENCES "products" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "product_variants" ("id", "storeId", "productId", "priceMinor", "stock", "position", "createdAt", "updatedAt")
SELECT 'var_' || "id", "storeId", "id", "priceMinor", "stock", 0, "createdAt", "updatedAt" FROM "products";

-- CreateIndex
CREATE INDEX "product_variants_productId_position_idx" ON "product_variants"("productId", "position");

-- CreateIndex
CREATE UNIQUE INDEX "product_variants_storeId_sku_key" ON "product_variants"("storeId", "sku");

-- AlterTable: no table rebuild, so the catalog search triggers on "products" stay as they are.
ALTER TABLE "products" ADD COLUMN "optionNames" TEXT NOT NULL DEFAULT '[]';
ALTER TABLE "products" DROP COLUMN "stock";

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_cart_lines" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "cartId" TEXT NOT NULL,
    "productId" TEXT NOT NULL,
    "variantId" TEXT NOT NULL,
    "quantity" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "cart_lines_cartId_fkey" FOREIGN KEY ("cartId") REFERENCES "carts" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "cart_lines_productId_fkey" FOREIGN KEY ("productId") REFERENCES "products" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "cart_lines_variantId_fkey" FOREIGN KEY ("variantId") REFERENCES "product_variants" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_cart_lines" ("cartId", "createdAt", "id", "productId", "variantId", "quantity")
SELECT "cartId", "createdAt", "id", "productId", 'var_' || "productId", "quantity" FROM "cart_lines";
DROP TABLE "cart_lines";
ALTER TABLE "new_cart_lines" RENAME TO "cart_lines";
CREATE INDEX "cart_lines_variantId_idx" ON "cart_lines"("variantId");
CREATE UNIQUE INDEX "cart_lines_cartId_variantId_key" ON "cart_lines"("cartId", "variantId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- AlterTable: columns added in place, because published views (Modules) read "order_lines".
ALTER TABLE "order_lines" ADD COLUMN "variantId" TEXT REFERENCES "product_variants" ("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "order_lines" ADD COLUMN "variantTitle" TEXT NOT NULL DEFAULT '';
ALTER TABLE "order_lines" ADD COLUMN "sku" TEXT;
UPDATE "order_lines" SET "variantId" = 'var_' || "productId" WHERE "productId" IS NOT NULL;
CREATE INDEX "order_lines_variantId_idx" ON "order_lines"("variantId");
