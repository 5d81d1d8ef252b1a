-- Each customer's Orders and what they captured and had refunded, kept by triggers on "orders"
-- in the transaction of every write, so no write path can forget them: a page of customers reads
-- a row each instead of every Order of each. An Order is taken off its old customer before it is
-- added to its new one. Deleting the account deletes its row. The driver adapter splits a
-- migration at every semicolon, so the function writes its own as \x3B.
CREATE TABLE "customer_totals" (
    "storeId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "orders" INTEGER NOT NULL DEFAULT 0,
    "capturedMinor" BIGINT NOT NULL DEFAULT 0,
    "refundedMinor" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "customer_totals_pkey" PRIMARY KEY ("storeId", "userId")
);
CREATE UNIQUE INDEX "customer_totals_userId_key" ON "customer_totals"("userId");
ALTER TABLE "customer_totals" ADD CONSTRAINT "customer_totals_storeId_fkey" FOREIGN KEY ("storeId") REFERENCES "stores"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "customer_totals" ADD CONSTRAINT "customer_totals_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE FUNCTION "orders_customer"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
    IF TG_OP IN (''UPDATE'', ''DELETE'') AND OLD."userId" IS NOT NULL THEN
        UPDATE "customer_totals" SET "orders" = "orders" - 1, "capturedMinor" = "capturedMinor" - OLD."capturedMinor", "refundedMinor" = "refundedMinor" - OLD."refundedMinor"
            WHERE "storeId" = OLD."storeId" AND "userId" = OLD."userId"\x3B
    END IF\x3B
    IF TG_OP IN (''INSERT'', ''UPDATE'') AND NEW."userId" IS NOT NULL THEN
        INSERT INTO "customer_totals" ("storeId", "userId", "orders", "capturedMinor", "refundedMinor")
            VALUES (NEW."storeId", NEW."userId", 1, NEW."capturedMinor", NEW."refundedMinor")
            ON CONFLICT ("storeId", "userId") DO UPDATE SET "orders" = "customer_totals"."orders" + 1,
                "capturedMinor" = "customer_totals"."capturedMinor" + EXCLUDED."capturedMinor", "refundedMinor" = "customer_totals"."refundedMinor" + EXCLUDED."refundedMinor"\x3B
    END IF\x3B
    RETURN NULL\x3B
END ';

CREATE TRIGGER "orders_customer_insert_delete" AFTER INSERT OR DELETE ON "orders" FOR EACH ROW EXECUTE FUNCTION "orders_customer"();
CREATE TRIGGER "orders_customer_update" AFTER UPDATE OF "userId", "capturedMinor", "refundedMinor", "storeId" ON "orders" FOR EACH ROW
    WHEN (OLD."userId" IS DISTINCT FROM NEW."userId" OR OLD."capturedMinor" IS DISTINCT FROM NEW."capturedMinor"
        OR OLD."refundedMinor" IS DISTINCT FROM NEW."refundedMinor" OR OLD."storeId" IS DISTINCT FROM NEW."storeId")
    EXECUTE FUNCTION "orders_customer"();

INSERT INTO "customer_totals" ("storeId", "userId", "orders", "capturedMinor", "refundedMinor")
    SELECT "storeId", "userId", COUNT(*)::INTEGER, SUM("capturedMinor"), SUM("refundedMinor")
    FROM "orders" WHERE "userId" IS NOT NULL GROUP BY "storeId", "userId";
