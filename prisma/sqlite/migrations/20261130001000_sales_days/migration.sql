-- What a Store took on each UTC day, kept by triggers on "orders" in the transaction of every
-- write, so no write path can forget it: the Orders paid that day (by "paidAt"), what they
-- captured and what has been refunded of them. The overview sums a window's whole days from here.
-- A row is moved out of its old day before it is added to its new one.
CREATE TABLE "sales_days" (
    "storeId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "orders" INTEGER NOT NULL DEFAULT 0,
    "capturedMinor" BIGINT NOT NULL DEFAULT 0,
    "refundedMinor" BIGINT NOT NULL DEFAULT 0,

    PRIMARY KEY ("storeId", "day"),
    CONSTRAINT "sales_days_storeId_fkey" FOREIGN KEY ("storeId") REFERENCES "stores" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE TRIGGER "orders_sales_insert" AFTER INSERT ON "orders" WHEN new."paidAt" IS NOT NULL BEGIN
    INSERT INTO "sales_days" ("storeId", "day", "orders", "capturedMinor", "refundedMinor")
        VALUES (new."storeId", strftime('%Y-%m-%d', new."paidAt"), 1, new."capturedMinor", new."refundedMinor")
        ON CONFLICT ("storeId", "day") DO UPDATE SET "orders" = "orders" + 1,
            "capturedMinor" = "capturedMinor" + excluded."capturedMinor", "refundedMinor" = "refundedMinor" + excluded."refundedMinor";
END;

CREATE TRIGGER "orders_sales_update" AFTER UPDATE OF "paidAt", "capturedMinor", "refundedMinor", "storeId" ON "orders"
    WHEN old."paidAt" IS NOT new."paidAt" OR old."capturedMinor" IS NOT new."capturedMinor" OR old."refundedMinor" IS NOT new."refundedMinor" OR old."storeId" IS NOT new."storeId" BEGIN
    UPDATE "sales_days" SET "orders" = "orders" - 1, "capturedMinor" = "capturedMinor" - old."capturedMinor", "refundedMinor" = "refundedMinor" - old."refundedMinor"
        WHERE old."paidAt" IS NOT NULL AND "storeId" = old."storeId" AND "day" = strftime('%Y-%m-%d', old."paidAt");
    INSERT INTO "sales_days" ("storeId", "day", "orders", "capturedMinor", "refundedMinor")
        SELECT new."storeId", strftime('%Y-%m-%d', new."paidAt"), 1, new."capturedMinor", new."refundedMinor" WHERE new."paidAt" IS NOT NULL
        ON CONFLICT ("storeId", "day") DO UPDATE SET "orders" = "orders" + 1,
            "capturedMinor" = "capturedMinor" + excluded."capturedMinor", "refundedMinor" = "refundedMinor" + excluded."refundedMinor";
END;

CREATE TRIGGER "orders_sales_delete" AFTER DELETE ON "orders" WHEN old."paidAt" IS NOT NULL BEGIN
    UPDATE "sales_days" SET "orders" = "orders" - 1, "capturedMinor" = "capturedMinor" - old."capturedMinor", "refundedMinor" = "refundedMinor" - old."refundedMinor"
        WHERE "storeId" = old."storeId" AND "day" = strftime('%Y-%m-%d', old."paidAt");
END;

INSERT INTO "sales_days" ("storeId", "day", "orders", "capturedMinor", "refundedMinor")
    SELECT "storeId", strftime('%Y-%m-%d', "paidAt"), COUNT(*), SUM("capturedMinor"), SUM("refundedMinor")
    FROM "orders" WHERE "paidAt" IS NOT NULL GROUP BY "storeId", strftime('%Y-%m-%d', "paidAt");
