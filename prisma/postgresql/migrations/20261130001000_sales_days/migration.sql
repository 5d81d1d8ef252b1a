-- What a Store took on each UTC day, kept by triggers on "orders" in the transaction of every
-- write, so no write path can forget it: the Orders paid that day (by "paidAt", kept in UTC),
-- what they captured and what has been refunded of them. The overview sums the whole days of a window
-- from here. A row is moved out of its old day before it is added to its new one. Sums are
-- BIGINT, so a busy day cannot overflow them and refuse the payment that would. The driver
-- adapter splits a migration at every semicolon, so the function writes its own as \x3B.
-- The triggers run at commit (deferred constraint triggers): every writer takes these rows last,
-- after the counts and the Orders it changed, and holds them only while it commits, so writers
-- paying, refunding or placing Orders at once never wait on each other in a circle.
CREATE TABLE "sales_days" (
    "storeId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "orders" INTEGER NOT NULL DEFAULT 0,
    "capturedMinor" BIGINT NOT NULL DEFAULT 0,
    "refundedMinor" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "sales_days_pkey" PRIMARY KEY ("storeId", "day")
);
ALTER TABLE "sales_days" ADD CONSTRAINT "sales_days_storeId_fkey" FOREIGN KEY ("storeId") REFERENCES "stores"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE FUNCTION "orders_sales"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
    IF TG_OP IN (''UPDATE'', ''DELETE'') AND OLD."paidAt" IS NOT NULL THEN
        UPDATE "sales_days" SET "orders" = "orders" - 1, "capturedMinor" = "capturedMinor" - OLD."capturedMinor", "refundedMinor" = "refundedMinor" - OLD."refundedMinor"
            WHERE "storeId" = OLD."storeId" AND "day" = to_char(OLD."paidAt", ''YYYY-MM-DD'')\x3B
    END IF\x3B
    IF TG_OP IN (''INSERT'', ''UPDATE'') AND NEW."paidAt" IS NOT NULL THEN
        INSERT INTO "sales_days" ("storeId", "day", "orders", "capturedMinor", "refundedMinor")
            VALUES (NEW."storeId", to_char(NEW."paidAt", ''YYYY-MM-DD''), 1, NEW."capturedMinor", NEW."refundedMinor")
            ON CONFLICT ("storeId", "day") DO UPDATE SET "orders" = "sales_days"."orders" + 1,
                "capturedMinor" = "sales_days"."capturedMinor" + EXCLUDED."capturedMinor", "refundedMinor" = "sales_days"."refundedMinor" + EXCLUDED."refundedMinor"\x3B
    END IF\x3B
    RETURN NULL\x3B
END ';

CREATE CONSTRAINT TRIGGER "orders_sales_insert_delete" AFTER INSERT OR DELETE ON "orders" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "orders_sales"();
CREATE CONSTRAINT TRIGGER "orders_sales_update" AFTER UPDATE OF "paidAt", "capturedMinor", "refundedMinor", "storeId" ON "orders" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
    WHEN (OLD."paidAt" IS DISTINCT FROM NEW."paidAt" OR OLD."capturedMinor" IS DISTINCT FROM NEW."capturedMinor"
        OR OLD."refundedMinor" IS DISTINCT FROM NEW."refundedMinor" OR OLD."storeId" IS DISTINCT FROM NEW."storeId")
    EXECUTE FUNCTION "orders_sales"();

INSERT INTO "sales_days" ("storeId", "day", "orders", "capturedMinor", "refundedMinor")
    SELECT "storeId", to_char("paidAt", 'YYYY-MM-DD'), COUNT(*)::INTEGER, SUM("capturedMinor"), SUM("refundedMinor")
    FROM "orders" WHERE "paidAt" IS NOT NULL GROUP BY "storeId", to_char("paidAt", 'YYYY-MM-DD');
