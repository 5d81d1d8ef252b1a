-- CreateTable
CREATE TABLE "product_images" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "storeId" TEXT NOT NULL,
    "productId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "width" INTEGER,
    "height" INTEGER,
    CONSTRAINT "product_images_productId_fkey" FOREIGN KEY ("productId") REFERENCES "products" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "product_images_productId_position_idx" ON "product_images"("productId", "position");

-- CreateIndex
CREATE INDEX "product_images_storeId_key_idx" ON "product_images"("storeId", "key");

-- CreateIndex
CREATE UNIQUE INDEX "product_images_productId_key_key" ON "product_images"("productId", "key");


-- Every Product's existing image becomes the first of its gallery (size unknown: it was not recorded).
INSERT INTO "product_images" ("id", "storeId", "productId", "key", "position")
SELECT 'main-' || "id", "storeId", "id", "imageKey", 0 FROM "products" WHERE "imageKey" IS NOT NULL;
