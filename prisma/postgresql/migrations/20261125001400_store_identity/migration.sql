-- AlterTable
ALTER TABLE "stores" ADD COLUMN     "accentColor" TEXT,
ADD COLUMN     "logoHeight" INTEGER,
ADD COLUMN     "logoKey" TEXT,
ADD COLUMN     "logoWidth" INTEGER;

-- CreateTable
CREATE TABLE "store_policies" (
    "id" TEXT NOT NULL,
    "storeId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "store_policies_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "store_policies_storeId_kind_key" ON "store_policies"("storeId", "kind");

-- AddForeignKey
ALTER TABLE "store_policies" ADD CONSTRAINT "store_policies_storeId_fkey" FOREIGN KEY ("storeId") REFERENCES "stores"("id") ON DELETE CASCADE ON UPDATE CASCADE;

