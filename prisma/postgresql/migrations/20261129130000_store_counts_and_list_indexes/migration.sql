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
-- (`audit`) and how many customers (`customers`: accounts whose role is exactly "user"), kept by
-- triggers in the transaction of every write, so no write path can forget them. Counts change the
-- old status before the new, and statuses only move forward: concurrent writers take the rows'
-- locks in one order. The driver adapter splits a migration at every semicolon, so the functions'
-- bodies write theirs as \x3B in an escaped string.
CREATE TABLE "store_counts" (
    "storeId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "store_counts_pkey" PRIMARY KEY ("storeId", "name")
);
ALTER TABLE "store_counts" ADD CONSTRAINT "store_counts_storeId_fkey" FOREIGN KEY ("storeId") REFERENCES "stores"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE FUNCTION "store_counts_add"(store TEXT, counter TEXT, delta INTEGER) RETURNS void LANGUAGE plpgsql AS E'
BEGIN
    IF delta < 0 THEN
        UPDATE "store_counts" SET "count" = "count" + delta WHERE "storeId" = store AND "name" = counter\x3B
    ELSE
        INSERT INTO "store_counts" ("storeId", "name", "count") VALUES (store, counter, delta)
            ON CONFLICT ("storeId", "name") DO UPDATE SET "count" = "store_counts"."count" + delta\x3B
    END IF\x3B
END ';

CREATE FUNCTION "orders_count"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
    IF TG_OP IN (''UPDATE'', ''DELETE'') THEN PERFORM "store_counts_add"(OLD."storeId", ''orders:'' || OLD."status", -1)\x3B END IF\x3B
    IF TG_OP IN (''INSERT'', ''UPDATE'') THEN PERFORM "store_counts_add"(NEW."storeId", ''orders:'' || NEW."status", 1)\x3B END IF\x3B
    RETURN NULL\x3B
END ';

CREATE FUNCTION "products_count"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
    IF TG_OP IN (''UPDATE'', ''DELETE'') THEN PERFORM "store_counts_add"(OLD."storeId", ''products:'' || OLD."status", -1)\x3B END IF\x3B
    IF TG_OP IN (''INSERT'', ''UPDATE'') THEN PERFORM "store_counts_add"(NEW."storeId", ''products:'' || NEW."status", 1)\x3B END IF\x3B
    RETURN NULL\x3B
END ';

CREATE FUNCTION "audit_count"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
    IF TG_OP = ''DELETE'' THEN PERFORM "store_counts_add"(OLD."storeId", ''audit'', -1)\x3B ELSE PERFORM "store_counts_add"(NEW."storeId", ''audit'', 1)\x3B END IF\x3B
    RETURN NULL\x3B
END ';

CREATE FUNCTION "customers_count"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
    IF TG_OP IN (''UPDATE'', ''DELETE'') AND OLD."role" = ''user'' THEN PERFORM "store_counts_add"(OLD."storeId", ''customers'', -1)\x3B END IF\x3B
    IF TG_OP IN (''INSERT'', ''UPDATE'') AND NEW."role" = ''user'' THEN PERFORM "store_counts_add"(NEW."storeId", ''customers'', 1)\x3B END IF\x3B
    RETURN NULL\x3B
END ';

CREATE TRIGGER "orders_count_insert_delete" AFTER INSERT OR DELETE ON "orders" FOR EACH ROW EXECUTE FUNCTION "orders_count"();
CREATE TRIGGER "orders_count_status" AFTER UPDATE OF "status" ON "orders" FOR EACH ROW WHEN (OLD."status" IS DISTINCT FROM NEW."status") EXECUTE FUNCTION "orders_count"();
CREATE TRIGGER "products_count_insert_delete" AFTER INSERT OR DELETE ON "products" FOR EACH ROW EXECUTE FUNCTION "products_count"();
CREATE TRIGGER "products_count_status" AFTER UPDATE OF "status" ON "products" FOR EACH ROW WHEN (OLD."status" IS DISTINCT FROM NEW."status") EXECUTE FUNCTION "products_count"();
CREATE TRIGGER "customers_count_insert_delete" AFTER INSERT OR DELETE ON "users" FOR EACH ROW EXECUTE FUNCTION "customers_count"();
CREATE TRIGGER "customers_count_role" AFTER UPDATE OF "role" ON "users" FOR EACH ROW WHEN (OLD."role" IS DISTINCT FROM NEW."role") EXECUTE FUNCTION "customers_count"();
CREATE TRIGGER "audit_count" AFTER INSERT OR DELETE ON "audit_entries" FOR EACH ROW EXECUTE FUNCTION "audit_count"();

INSERT INTO "store_counts" ("storeId", "name", "count")
    SELECT "storeId", 'orders:' || "status", COUNT(*)::INTEGER FROM "orders" GROUP BY "storeId", "status";
INSERT INTO "store_counts" ("storeId", "name", "count")
    SELECT "storeId", 'audit', COUNT(*)::INTEGER FROM "audit_entries" GROUP BY "storeId";
INSERT INTO "store_counts" ("storeId", "name", "count")
    SELECT "storeId", 'customers', COUNT(*)::INTEGER FROM "users" WHERE "role" = 'user' GROUP BY "storeId";
INSERT INTO "store_counts" ("storeId", "name", "count")
    SELECT "storeId", 'products:' || "status", COUNT(*)::INTEGER FROM "products" GROUP BY "storeId", "status";
