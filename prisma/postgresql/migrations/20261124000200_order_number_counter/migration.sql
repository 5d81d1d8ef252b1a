-- AlterTable
ALTER TABLE "stores" ADD COLUMN     "lastOrderNumber" INTEGER NOT NULL DEFAULT 1000;


-- Existing stores keep their numbering: the counter starts at the highest number already given.
UPDATE "stores" SET "lastOrderNumber" = GREATEST(1000, COALESCE((SELECT MAX("number") FROM "orders" WHERE "orders"."storeId" = "stores"."id"), 1000));
