-- Each customer's Orders and what they captured and had refunded, kept by triggers on "orders"
-- in the transaction of every write, so no write path can forget them: a page of customers reads
-- a row each instead of every Order of each. An Order is taken off its old customer before it is
-- added to its new one. Deleting the account deletes its row.
CREATE TABLE "customer_totals" (
    "storeId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "orders" INTEGER NOT NULL DEFAULT 0,
    "capturedMinor" BIGINT NOT NULL DEFAULT 0,
    "refundedMinor" BIGINT NOT NULL DEFAULT 0,

    PRIMARY KEY ("storeId", "userId"),
    CONSTRAINT "customer_totals_storeId_fkey" FOREIGN KEY ("storeId") REFERENCES "stores" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "customer_totals_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "customer_totals_userId_key" ON "customer_totals"("userId");

CREATE TRIGGER "orders_customer_insert" AFTER INSERT ON "orders" WHEN new."userId" IS NOT NULL BEGIN
    INSERT INTO "customer_totals" ("storeId", "userId", "orders", "capturedMinor", "refundedMinor")
        VALUES (new."storeId", new."userId", 1, new."capturedMinor", new."refundedMinor")
        ON CONFLICT ("storeId", "userId") DO UPDATE SET "orders" = "orders" + 1,
            "capturedMinor" = "capturedMinor" + excluded."capturedMinor", "refundedMinor" = "refundedMinor" + excluded."refundedMinor";
END;

CREATE TRIGGER "orders_customer_update" AFTER UPDATE OF "userId", "capturedMinor", "refundedMinor", "storeId" ON "orders"
    WHEN old."userId" IS NOT new."userId" OR old."capturedMinor" IS NOT new."capturedMinor" OR old."refundedMinor" IS NOT new."refundedMinor" OR old."storeId" IS NOT new."storeId" BEGIN
    UPDATE "customer_totals" SET "orders" = "orders" - 1, "capturedMinor" = "capturedMinor" - old."capturedMinor", "refundedMinor" = "refundedMinor" - old."refundedMinor"
        WHERE old."userId" IS NOT NULL AND "storeId" = old."storeId" AND "userId" = old."userId";
    INSERT INTO "customer_totals" ("storeId", "userId", "orders", "capturedMinor", "refundedMinor")
        SELECT new."storeId", new."userId", 1, new."capturedMinor", new."refundedMinor" WHERE new."userId" IS NOT NULL
        ON CONFLICT ("storeId", "userId") DO UPDATE SET "orders" = "orders" + 1,
            "capturedMinor" = "capturedMinor" + excluded."capturedMinor", "refundedMinor" = "refundedMinor" + excluded."refundedMinor";
END;

CREATE TRIGGER "orders_customer_delete" AFTER DELETE ON "orders" WHEN old."userId" IS NOT NULL BEGIN
    UPDATE "customer_totals" SET "orders" = "orders" - 1, "capturedMinor" = "capturedMinor" - old."capturedMinor", "refundedMinor" = "refundedMinor" - old."refundedMinor"
        WHERE "storeId" = old."storeId" AND "userId" = old."userId";
END;

INSERT INTO "customer_totals" ("storeId", "userId", "orders", "capturedMinor", "refundedMinor")
    SELECT "storeId", "userId", COUNT(*), SUM("capturedMinor"), SUM("refundedMinor")
    FROM "orders" WHERE "userId" IS NOT NULL GROUP BY "storeId", "userId";
