-- Each guest buyer of a Store (an email with Orders placed without an account), with how many
-- Orders and what they captured and had refunded, and their latest Order's time, kept by
-- triggers on "orders" in the transaction of every write: the guest buyers' list reads a page
-- of rows in the order it shows them instead of grouping every guest Order of the Store, and
-- how many there are is a kept count (guests in "store_counts"). An Order is taken off its old
-- buyer before it is added to its new one. A buyer left with no Order is removed, and one whose
-- latest Order left reads the time of the latest that remains. The triggers run at commit, as
-- those of the customer totals do, and the driver adapter splits a migration at every
-- semicolon, so the function writes its own as \x3B.
CREATE TABLE "guest_buyers" (
    "storeId" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "orders" INTEGER NOT NULL DEFAULT 0,
    "capturedMinor" BIGINT NOT NULL DEFAULT 0,
    "refundedMinor" BIGINT NOT NULL DEFAULT 0,
    "lastOrderAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "guest_buyers_pkey" PRIMARY KEY ("storeId", "email")
);
CREATE INDEX "guest_buyers_storeId_lastOrderAt_email_idx" ON "guest_buyers"("storeId", "lastOrderAt", "email");
CREATE INDEX "orders_storeId_email_createdAt_idx" ON "orders"("storeId", "email", "createdAt");
ALTER TABLE "guest_buyers" ADD CONSTRAINT "guest_buyers_storeId_fkey" FOREIGN KEY ("storeId") REFERENCES "stores"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE FUNCTION "orders_guest"() RETURNS trigger LANGUAGE plpgsql AS E'
DECLARE
    created BOOLEAN\x3B
    removed INTEGER\x3B
BEGIN
    IF TG_OP IN (''UPDATE'', ''DELETE'') AND OLD."userId" IS NULL THEN
        UPDATE "guest_buyers" SET "orders" = "orders" - 1, "capturedMinor" = "capturedMinor" - OLD."capturedMinor", "refundedMinor" = "refundedMinor" - OLD."refundedMinor",
                "lastOrderAt" = COALESCE((SELECT MAX(o."createdAt") FROM "orders" o WHERE o."storeId" = OLD."storeId" AND o."email" = OLD."email" AND o."userId" IS NULL), "lastOrderAt")
            WHERE "storeId" = OLD."storeId" AND "email" = OLD."email"\x3B
        DELETE FROM "guest_buyers" WHERE "storeId" = OLD."storeId" AND "email" = OLD."email" AND "orders" <= 0\x3B
        GET DIAGNOSTICS removed = ROW_COUNT\x3B
        IF removed > 0 THEN PERFORM "store_counts_add"(OLD."storeId", ''guests'', -1)\x3B END IF\x3B
    END IF\x3B
    IF TG_OP IN (''INSERT'', ''UPDATE'') AND NEW."userId" IS NULL THEN
        INSERT INTO "guest_buyers" ("storeId", "email", "orders", "capturedMinor", "refundedMinor", "lastOrderAt")
            VALUES (NEW."storeId", NEW."email", 1, NEW."capturedMinor", NEW."refundedMinor", NEW."createdAt")
            ON CONFLICT ("storeId", "email") DO UPDATE SET "orders" = "guest_buyers"."orders" + 1,
                "capturedMinor" = "guest_buyers"."capturedMinor" + EXCLUDED."capturedMinor", "refundedMinor" = "guest_buyers"."refundedMinor" + EXCLUDED."refundedMinor",
                "lastOrderAt" = GREATEST("guest_buyers"."lastOrderAt", EXCLUDED."lastOrderAt")
            RETURNING (xmax = 0) INTO created\x3B
        IF created THEN PERFORM "store_counts_add"(NEW."storeId", ''guests'', 1)\x3B END IF\x3B
    END IF\x3B
    RETURN NULL\x3B
END ';

CREATE CONSTRAINT TRIGGER "orders_guest_insert_delete" AFTER INSERT OR DELETE ON "orders" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "orders_guest"();
CREATE CONSTRAINT TRIGGER "orders_guest_update" AFTER UPDATE OF "userId", "email", "capturedMinor", "refundedMinor", "storeId" ON "orders" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
    WHEN ((OLD."userId" IS NULL OR NEW."userId" IS NULL) AND (OLD."userId" IS DISTINCT FROM NEW."userId" OR OLD."email" IS DISTINCT FROM NEW."email"
        OR OLD."capturedMinor" IS DISTINCT FROM NEW."capturedMinor" OR OLD."refundedMinor" IS DISTINCT FROM NEW."refundedMinor" OR OLD."storeId" IS DISTINCT FROM NEW."storeId"))
    EXECUTE FUNCTION "orders_guest"();

INSERT INTO "guest_buyers" ("storeId", "email", "orders", "capturedMinor", "refundedMinor", "lastOrderAt")
    SELECT "storeId", "email", COUNT(*)::INTEGER, SUM("capturedMinor"), SUM("refundedMinor"), MAX("createdAt")
    FROM "orders" WHERE "userId" IS NULL GROUP BY "storeId", "email";
INSERT INTO "store_counts" ("storeId", "name", "count")
    SELECT "storeId", 'guests', COUNT(*)::INTEGER FROM "guest_buyers" GROUP BY "storeId"
    ON CONFLICT ("storeId", "name") DO UPDATE SET "count" = EXCLUDED."count";
