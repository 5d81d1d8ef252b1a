-- Products are sold as variants. Every existing Product becomes one variant ("var_" + its id)
-- holding its price and stock. Cart lines and Order lines point at it, so every cart and Order
-- reads as before.

-- CreateTable
CREATE TABLE "product_variants" (
    "id" TEXT NOT NULL,
    "storeId" TEXT NOT NULL,
    "productId" TEXT NOT NULL,
    "optionValues" TEXT NOT NULL DEFAULT '[]',
    "title" TEXT NOT NULL DEFAULT '',
    "sku" TEXT,
    "priceMinor" INTEGER NOT NULL,
    "stock" INTEGER NOT NULL DEFAULT 0,
    "imageKey" TEXT,
    "position" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "product_variants_pkey" PRIMARY KEY ("id")
);
INSERT INTO "product_variants" ("id", "storeId", "productId", "priceMinor", "stock", "position", "createdAt", "updatedAt")
SELECT 'var_' || "id", "storeId", "id", "priceMinor", "stock", 0, "createdAt", "updatedAt" FROM "products";

-- CreateIndex
CREATE INDEX "product_variants_productId_position_idx" ON "product_variants"("productId", "position");

-- CreateIndex
CREATE UNIQUE INDEX "product_variants_storeId_sku_key" ON "product_variants"("storeId", "sku");

-- AddForeignKey
ALTER TABLE "product_variants" ADD CONSTRAINT "product_variants_productId_fkey" FOREIGN KEY ("productId") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AlterTable
ALTER TABLE "products" DROP COLUMN "stock",
ADD COLUMN     "optionNames" TEXT NOT NULL DEFAULT '[]';

-- AlterTable
ALTER TABLE "cart_lines" ADD COLUMN     "variantId" TEXT;
UPDATE "cart_lines" SET "variantId" = 'var_' || "productId";
ALTER TABLE "cart_lines" ALTER COLUMN "variantId" SET NOT NULL;

-- DropIndex
DROP INDEX "cart_lines_cartId_productId_key";

-- CreateIndex
CREATE INDEX "cart_lines_variantId_idx" ON "cart_lines"("variantId");

-- CreateIndex
CREATE UNIQUE INDEX "cart_lines_cartId_variantId_key" ON "cart_lines"("cartId", "variantId");

-- AddForeignKey
ALTER TABLE "cart_lines" ADD CONSTRAINT "cart_lines_variantId_fkey" FOREIGN KEY ("variantId") REFERENCES "product_variants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AlterTable
ALTER TABLE "order_lines" ADD COLUMN     "sku" TEXT,
ADD COLUMN     "variantId" TEXT,
ADD COLUMN     "variantTitle" TEXT NOT NULL DEFAULT '';
UPDATE "order_lines" SET "variantId" = 'var_' || "productId" WHERE "productId" IS NOT NULL;

-- CreateIndex
CREATE INDEX "order_lines_variantId_idx" ON "order_lines"("variantId");

-- AddForeignKey
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_variantId_fkey" FOREIGN KEY ("variantId") REFERENCES "product_variants"("id") ON DELETE SET NULL ON UPDATE CASCADE;
