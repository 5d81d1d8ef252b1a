-- What a store of real size reads on every visit of its busiest pages, by an index or a kept count
-- instead of a walk through every row (docs/performance.md, "At a real shop's size").

-- The catalog sorted by price or by name, Store Admin's products last changed first and customers
-- newest first, the Orders of one status newest first, and the sales of a period summed from the
-- index alone.
CREATE INDEX "products_storeId_status_priceMinor_idx" ON "products"("storeId", "status", "priceMinor");
CREATE INDEX "products_storeId_status_title_idx" ON "products"("storeId", "status", "title");
CREATE INDEX "products_storeId_updatedAt_idx" ON "products"("storeId", "updatedAt");
CREATE INDEX "users_storeId_role_createdAt_idx" ON "users"("storeId", "role", "createdAt");
CREATE INDEX "orders_storeId_status_number_idx" ON "orders"("storeId", "status", "number");
DROP INDEX "orders_storeId_paidAt_idx";
CREATE INDEX "orders_storeId_paidAt_capturedMinor_refundedMinor_idx" ON "orders"("storeId", "paidAt", "capturedMinor", "refundedMinor");

-- How many Orders and Products a Store has in each status (`orders:<status>`,
-- `products:<status>`), how many activity entries
-- (`audit`) and how many customers (`customers`: accounts whose role is exactly "user"), kept by triggers in the transaction of every write, so no write path can forget them.
CREATE TABLE "store_counts" (
    "storeId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("storeId", "name"),
    CONSTRAINT "store_counts_storeId_fkey" FOREIGN KEY ("storeId") REFERENCES "stores" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE TRIGGER "orders_count_insert" AFTER INSERT ON "orders" BEGIN
    INSERT INTO "store_counts" ("storeId", "name", "count") VALUES (new."storeId", 'orders:' || new."status", 1)
        ON CONFLICT ("storeId", "name") DO UPDATE SET "count" = "count" + 1;
END;

CREATE TRIGGER "orders_count_status" AFTER UPDATE OF "status" ON "orders" WHEN old."status" IS NOT new."status" BEGIN
    UPDATE "store_counts" SET "count" = "count" - 1 WHERE "storeId" = old."storeId" AND "name" = 'orders:' || old."status";
    INSERT INTO "store_counts" ("storeId", "name", "count") VALUES (new."storeId", 'orders:' || new."status", 1)
        ON CONFLICT ("storeId", "name") DO UPDATE SET "count" = "count" + 1;
END;

CREATE TRIGGER "orders_count_delete" AFTER DELETE ON "orders" BEGIN
    UPDATE "store_counts" SET "count" = "count" - 1 WHERE "storeId" = old."storeId" AND "name" = 'orders:' || old."status";
END;

CREATE TRIGGER "products_count_insert" AFTER INSERT ON "products" BEGIN
    INSERT INTO "store_counts" ("storeId", "name", "count") VALUES (new."storeId", 'products:' || new."status", 1)
        ON CONFLICT ("storeId", "name") DO UPDATE SET "count" = "count" + 1;
END;

CREATE TRIGGER "products_count_status" AFTER UPDATE OF "status" ON "products" WHEN old."status" IS NOT new."status" BEGIN
    UPDATE "store_counts" SET "count" = "count" - 1 WHERE "storeId" = old."storeId" AND "name" = 'products:' || old."status";
    INSERT INTO "store_counts" ("storeId", "name", "count") VALUES (new."storeId", 'products:' || new."status", 1)
        ON CONFLICT ("storeId", "name") DO UPDATE SET "count" = "count" + 1;
END;

CREATE TRIGGER "products_count_delete" AFTER DELETE ON "products" BEGIN
    UPDATE "store_counts" SET "count" = "count" - 1 WHERE "storeId" = old."storeId" AND "name" = 'products:' || old."status";
END;

CREATE TRIGGER "audit_count_insert" AFTER INSERT ON "audit_entries" BEGIN
    INSERT INTO "store_counts" ("storeId", "name", "count") VALUES (new."storeId", 'audit', 1)
        ON CONFLICT ("storeId", "name") DO UPDATE SET "count" = "count" + 1;
END;

CREATE TRIGGER "audit_count_delete" AFTER DELETE ON "audit_entries" BEGIN
    UPDATE "store_counts" SET "count" = "count" - 1 WHERE "storeId" = old."storeId" AND "name" = 'audit';
END;

CREATE TRIGGER "customers_count_insert" AFTER INSERT ON "users" WHEN new."role" = 'user' BEGIN
    INSERT INTO "store_counts" ("storeId", "name", "count") VALUES (new."storeId", 'customers', 1)
        ON CONFLICT ("storeId", "name") DO UPDATE SET "count" = "count" + 1;
END;

CREATE TRIGGER "customers_count_became" AFTER UPDATE OF "role" ON "users" WHEN old."role" IS NOT 'user' AND new."role" = 'user' BEGIN
    INSERT INTO "store_counts" ("storeId", "name", "count") VALUES (new."storeId", 'customers', 1)
        ON CONFLICT ("storeId", "name") DO UPDATE SET "count" = "count" + 1;
END;

CREATE TRIGGER "customers_count_left" AFTER UPDATE OF "role" ON "users" WHEN old."role" = 'user' AND new."role" IS NOT 'user' BEGIN
    UPDATE "store_counts" SET "count" = "count" - 1 WHERE "storeId" = old."storeId" AND "name" = 'customers';
END;

CREATE TRIGGER "customers_count_delete" AFTER DELETE ON "users" WHEN old."role" = 'user' BEGIN
    UPDATE "store_counts" SET "count" = "count" - 1 WHERE "storeId" = old."storeId" AND "name" = 'customers';
END;

INSERT INTO "store_counts" ("storeId", "name", "count")
    SELECT "storeId", 'orders:' || "status", COUNT(*) FROM "orders" GROUP BY "storeId", "status";
INSERT INTO "store_counts" ("storeId", "name", "count")
    SELECT "storeId", 'audit', COUNT(*) FROM "audit_entries" GROUP BY "storeId";
INSERT INTO "store_counts" ("storeId", "name", "count")
    SELECT "storeId", 'customers', COUNT(*) FROM "users" WHERE "role" = 'user' GROUP BY "storeId";
INSERT INTO "store_counts" ("storeId", "name", "count")
    SELECT "storeId", 'products:' || "status", COUNT(*) FROM "products" GROUP BY "storeId", "status";
