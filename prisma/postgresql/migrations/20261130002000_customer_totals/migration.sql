-- The Orders of each customer and what they captured and had refunded, kept by triggers on "orders"
-- in the transaction of every write, so no write path can forget them: a page of customers reads
-- a row each instead of every Order of each. An Order is taken off its old customer before it is
-- added to its new one. Deleting the account deletes its row. The driver adapter splits a
-- migration at every semicolon, so the function writes its own as \x3B.
-- The triggers run at commit (deferred constraint triggers): every writer takes these rows last,
-- after the counts and the Orders it changed, and holds them only while it commits, so writers
-- paying, refunding or placing Orders at once never wait on each other in a circle.
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

CREATE CONSTRAINT TRIGGER "orders_customer_insert_delete" AFTER INSERT OR DELETE ON "orders" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "orders_customer"();
CREATE CONSTRAINT TRIGGER "orders_customer_update" AFTER UPDATE OF "userId", "capturedMinor", "refundedMinor", "storeId" ON "orders" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
    WHEN (OLD."userId" IS DISTINCT FROM NEW."userId" OR OLD."capturedMinor" IS DISTINCT FROM NEW."capturedMinor"
        OR OLD."refundedMinor" IS DISTINCT FROM NEW."refundedMinor" OR OLD."storeId" IS DISTINCT FROM NEW."storeId")
    EXECUTE FUNCTION "orders_customer"();

INSERT INTO "customer_totals" ("storeId", "userId", "orders", "capturedMinor", "refundedMinor")
    SELECT "storeId", "userId", COUNT(*)::INTEGER, SUM("capturedMinor"), SUM("refundedMinor")
    FROM "orders" WHERE "userId" IS NOT NULL GROUP BY "storeId", "userId";
