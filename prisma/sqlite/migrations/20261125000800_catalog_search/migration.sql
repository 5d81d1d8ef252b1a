-- Catalog search [R110]: an FTS5 index of every Product's title and description, kept by
-- triggers so no write path can forget it. It holds its own copy of the text, keyed by the
-- Product's id (not by rowid, which VACUUM may renumber in a table without an INTEGER key).
-- A later migration that rebuilds "products" drops these triggers: recreate them there
-- (app/catalog/search.server.test.ts fails when an edit stops reaching the index).
CREATE VIRTUAL TABLE "product_search" USING fts5(
    "productId" UNINDEXED,
    "title",
    "description",
    tokenize = 'unicode61 remove_diacritics 0'
);

CREATE TRIGGER "products_search_insert" AFTER INSERT ON "products" BEGIN
    INSERT INTO "product_search" ("productId", "title", "description") VALUES (new."id", new."title", new."description");
END;

CREATE TRIGGER "products_search_update" AFTER UPDATE OF "title", "description" ON "products" BEGIN
    DELETE FROM "product_search" WHERE "productId" = old."id";
    INSERT INTO "product_search" ("productId", "title", "description") VALUES (new."id", new."title", new."description");
END;

CREATE TRIGGER "products_search_delete" AFTER DELETE ON "products" BEGIN
    DELETE FROM "product_search" WHERE "productId" = old."id";
END;

INSERT INTO "product_search" ("productId", "title", "description") SELECT "id", "title", "description" FROM "products";
