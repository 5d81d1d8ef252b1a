-- CreateTable
CREATE TABLE "shipping_zones" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "storeId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "countries" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "shipping_zones_storeId_fkey" FOREIGN KEY ("storeId") REFERENCES "stores" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "shipping_rates" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "storeId" TEXT NOT NULL,
    "zoneId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "priceMinor" INTEGER NOT NULL,
    "freeOverMinor" INTEGER,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "shipping_rates_zoneId_fkey" FOREIGN KEY ("zoneId") REFERENCES "shipping_zones" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "tax_rates" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "storeId" TEXT NOT NULL,
    "country" TEXT NOT NULL,
    "rateBasisPoints" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "tax_rates_storeId_fkey" FOREIGN KEY ("storeId") REFERENCES "stores" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- AlterTable (added in place: a rebuilt "stores" or "orders" would drop the views Modules publish over them)
ALTER TABLE "stores" ADD COLUMN "pricesIncludeTax" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "orders" ADD COLUMN "shippingMinor" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "orders" ADD COLUMN "shippingName" TEXT;
ALTER TABLE "orders" ADD COLUMN "taxMinor" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "orders" ADD COLUMN "taxRateBasisPoints" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "orders" ADD COLUMN "taxIncluded" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE UNIQUE INDEX "shipping_zones_storeId_name_key" ON "shipping_zones"("storeId", "name");

-- CreateIndex
CREATE INDEX "shipping_rates_storeId_zoneId_idx" ON "shipping_rates"("storeId", "zoneId");

-- CreateIndex
CREATE UNIQUE INDEX "tax_rates_storeId_country_key" ON "tax_rates"("storeId", "country");

