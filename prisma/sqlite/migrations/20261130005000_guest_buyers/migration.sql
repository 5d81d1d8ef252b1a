-- Each guest buyer of a Store (an email with Orders placed without an account), with how many
-- Orders and what they captured and had refunded, and their latest Order's time, kept by
-- triggers on "orders" in the transaction of every write: the guest buyers' list reads a page
-- of rows in the order it shows them instead of grouping every guest Order of the Store, and
-- how many there are is a kept count (`guests` in "store_counts"). An Order is taken off its
-- old buyer before it is added to its new one; a buyer left with no Order is removed, and one
-- whose latest Order left reads the time of the latest that remains.
CREATE TABLE "guest_buyers" (
    "storeId" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "orders" INTEGER NOT NULL DEFAULT 0,
    "capturedMinor" BIGINT NOT NULL DEFAULT 0,
    "refundedMinor" BIGINT NOT NULL DEFAULT 0,
    "lastOrderAt" DATETIME NOT NULL,

    PRIMARY KEY ("storeId", "email"),
    CONSTRAINT "guest_buyers_storeId_fkey" FOREIGN KEY ("storeId") REFERENCES "stores" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "guest_buyers_storeId_lastOrderAt_email_idx" ON "guest_buyers"("storeId", "lastOrderAt", "email");
CREATE INDEX "orders_storeId_email_createdAt_idx" ON "orders"("storeId", "email", "createdAt");

CREATE TRIGGER "orders_guest_insert" AFTER INSERT ON "orders" WHEN new."userId" IS NULL BEGIN
    INSERT INTO "store_counts" ("storeId", "name", "count")
        SELECT new."storeId", 'guests', 1 WHERE NOT EXISTS (SELECT 1 FROM "guest_buyers" WHERE "storeId" = new."storeId" AND "email" = new."email")
        ON CONFLICT ("storeId", "name") DO UPDATE SET "count" = "count" + 1;
    INSERT INTO "guest_buyers" ("storeId", "email", "orders", "capturedMinor", "refundedMinor", "lastOrderAt")
        VALUES (new."storeId", new."email", 1, new."capturedMinor", new."refundedMinor", new."createdAt")
        ON CONFLICT ("storeId", "email") DO UPDATE SET "orders" = "orders" + 1,
            "capturedMinor" = "capturedMinor" + excluded."capturedMinor", "refundedMinor" = "refundedMinor" + excluded."refundedMinor",
            "lastOrderAt" = MAX("lastOrderAt", excluded."lastOrderAt");
END;

CREATE TRIGGER "orders_guest_update" AFTER UPDATE OF "userId", "email", "capturedMinor", "refundedMinor", "storeId" ON "orders"
    WHEN (old."userId" IS NULL OR new."userId" IS NULL) AND (old."userId" IS NOT new."userId" OR old."email" IS NOT new."email"
        OR old."capturedMinor" IS NOT new."capturedMinor" OR old."refundedMinor" IS NOT new."refundedMinor" OR old."storeId" IS NOT new."storeId") BEGIN
    UPDATE "guest_buyers" SET "orders" = "orders" - 1, "capturedMinor" = "capturedMinor" - old."capturedMinor", "refundedMinor" = "refundedMinor" - old."refundedMinor",
            "lastOrderAt" = COALESCE((SELECT MAX("createdAt") FROM "orders" WHERE "storeId" = old."storeId" AND "email" = old."email" AND "userId" IS NULL), "lastOrderAt")
        WHERE old."userId" IS NULL AND "storeId" = old."storeId" AND "email" = old."email";
    UPDATE "store_counts" SET "count" = "count" - 1
        WHERE "storeId" = old."storeId" AND "name" = 'guests' AND EXISTS (SELECT 1 FROM "guest_buyers" WHERE "storeId" = old."storeId" AND "email" = old."email" AND "orders" <= 0);
    DELETE FROM "guest_buyers" WHERE "storeId" = old."storeId" AND "email" = old."email" AND "orders" <= 0;
    INSERT INTO "store_counts" ("storeId", "name", "count")
        SELECT new."storeId", 'guests', 1 WHERE new."userId" IS NULL AND NOT EXISTS (SELECT 1 FROM "guest_buyers" WHERE "storeId" = new."storeId" AND "email" = new."email")
        ON CONFLICT ("storeId", "name") DO UPDATE SET "count" = "count" + 1;
    INSERT INTO "guest_buyers" ("storeId", "email", "orders", "capturedMinor", "refundedMinor", "lastOrderAt")
        SELECT new."storeId", new."email", 1, new."capturedMinor", new."refundedMinor", new."createdAt" WHERE new."userId" IS NULL
        ON CONFLICT ("storeId", "email") DO UPDATE SET "orders" = "orders" + 1,
            "capturedMinor" = "capturedMinor" + excluded."capturedMinor", "refundedMinor" = "refundedMinor" + excluded."refundedMinor",
            "lastOrderAt" = MAX("lastOrderAt", excluded."lastOrderAt");
END;

CREATE TRIGGER "orders_guest_delete" AFTER DELETE ON "orders" WHEN old."userId" IS NULL BEGIN
    UPDATE "guest_buyers" SET "orders" = "orders" - 1, "capturedMinor" = "capturedMinor" - old."capturedMinor", "refundedMinor" = "refundedMinor" - old."refundedMinor",
            "lastOrderAt" = COALESCE((SELECT MAX("createdAt") FROM "orders" WHERE "storeId" = old."storeId" AND "email" = old."email" AND "userId" IS NULL), "lastOrderAt")
        WHERE "storeId" = old."storeId" AND "email" = old."email";
    UPDATE "store_counts" SET "count" = "count" - 1
        WHERE "storeId" = old."storeId" AND "name" = 'guests' AND EXISTS (SELECT 1 FROM "guest_buyers" WHERE "storeId" = old."storeId" AND "email" = old."email" AND "orders" <= 0);
    DELETE FROM "guest_buyers" WHERE "storeId" = old."storeId" AND "email" = old."email" AND "orders" <= 0;
END;

INSERT INTO "guest_buyers" ("storeId", "email", "orders", "capturedMinor", "refundedMinor", "lastOrderAt")
    SELECT "storeId", "email", COUNT(*), SUM("capturedMinor"), SUM("refundedMinor"), MAX("createdAt")
    FROM "orders" WHERE "userId" IS NULL GROUP BY "storeId", "email";
INSERT INTO "store_counts" ("storeId", "name", "count")
    SELECT "storeId", 'guests', COUNT(*) FROM "guest_buyers" WHERE true GROUP BY "storeId"
    ON CONFLICT ("storeId", "name") DO UPDATE SET "count" = excluded."count";
