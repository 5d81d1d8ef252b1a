-- Written by `npm run modules:compile` from the Module definitions (app/modules/registry.ts).
CREATE TABLE "mod_reviews" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "store_id" TEXT NOT NULL REFERENCES "stores" ("id") ON DELETE CASCADE,
    "product_id" TEXT NOT NULL REFERENCES "products" ("id") ON DELETE CASCADE,
    "customer_id" TEXT NOT NULL REFERENCES "users" ("id") ON DELETE CASCADE,
    "author_name" VARCHAR(80) NOT NULL,
    "rating" INTEGER NOT NULL CHECK ("rating" BETWEEN 1 AND 5),
    "title" VARCHAR(120) NOT NULL,
    "body" VARCHAR(4000) NOT NULL,
    "status" VARCHAR(16) NOT NULL,
    "moderated_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL
);
CREATE INDEX "mod_reviews_created_at_id_idx" ON "mod_reviews" ("store_id", "created_at", "id");
CREATE UNIQUE INDEX "mod_reviews_product_id_customer_id_key" ON "mod_reviews" ("store_id", "product_id", "customer_id");
CREATE INDEX "mod_reviews_status_created_at_idx" ON "mod_reviews" ("store_id", "status", "created_at");
CREATE INDEX "mod_reviews_product_id_status_idx" ON "mod_reviews" ("store_id", "product_id", "status");
CREATE VIEW "view_purchases" AS SELECT l."id" AS "id", o."storeId" AS "store_id", o."id" AS "order_id", l."productId" AS "product_id", o."userId" AS "customer_id", o."status" AS "status", o."createdAt" AS "placed_at" FROM "orders" o JOIN "order_lines" l ON l."orderId" = o."id";
CREATE VIEW "view_catalog" AS SELECT p."id" AS "id", p."storeId" AS "store_id", p."slug" AS "slug", p."title" AS "title", p."status" AS "status" FROM "products" p;
