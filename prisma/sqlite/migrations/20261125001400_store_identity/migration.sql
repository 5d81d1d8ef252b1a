-- AlterTable
ALTER TABLE "stores" ADD COLUMN "accentColor" TEXT;
ALTER TABLE "stores" ADD COLUMN "logoHeight" INTEGER;
ALTER TABLE "stores" ADD COLUMN "logoKey" TEXT;
ALTER TABLE "stores" ADD COLUMN "logoWidth" INTEGER;

-- CreateTable
CREATE TABLE "store_policies" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "storeId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "store_policies_storeId_fkey" FOREIGN KEY ("storeId") REFERENCES "stores" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "store_policies_storeId_kind_key" ON "store_policies"("storeId", "kind");

