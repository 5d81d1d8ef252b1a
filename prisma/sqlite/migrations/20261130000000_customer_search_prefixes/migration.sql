-- Store Admin's customer search, rebuilt with an index of the first one, two and three letters of
-- every word: a question's word is a prefix, and without that index FTS5 gathers the entries of
-- every word it begins (all 2,000 "Ada"s and "Adams"es) before it can return the first page or
-- stop a count at its cap. With it, a prefix of up to three letters is one list read in order,
-- and a longer one a handful of words. FTS5 cannot add the option to a table, so the table is
-- made anew from the accounts, as its first migration made it, with its triggers around it.
DROP TRIGGER "users_search_insert";
DROP TRIGGER "users_search_update";
DROP TRIGGER "users_search_delete";
DROP TABLE "customer_search";

CREATE VIRTUAL TABLE "customer_search" USING fts5(
    "userId",
    "scope",
    "name",
    "email",
    tokenize = 'unicode61 remove_diacritics 0',
    prefix = '1 2 3'
);

CREATE TRIGGER "users_search_insert" AFTER INSERT ON "users" BEGIN
    INSERT INTO "customer_search" ("userId", "scope", "name", "email")
        VALUES (new."id", CASE WHEN new."role" = 'user' THEN new."storeId" ELSE '' END, new."name", new."email");
END;

CREATE TRIGGER "users_search_update" AFTER UPDATE OF "name", "email", "role", "storeId" ON "users" BEGIN
    UPDATE "customer_search"
        SET "userId" = new."id", "scope" = CASE WHEN new."role" = 'user' THEN new."storeId" ELSE '' END, "name" = new."name", "email" = new."email"
        WHERE rowid = (SELECT rowid FROM "customer_search" WHERE "customer_search" MATCH 'userId : "' || replace(old."id", '"', '""') || '"' AND "userId" = old."id");
END;

CREATE TRIGGER "users_search_delete" AFTER DELETE ON "users" BEGIN
    DELETE FROM "customer_search"
        WHERE rowid = (SELECT rowid FROM "customer_search" WHERE "customer_search" MATCH 'userId : "' || replace(old."id", '"', '""') || '"' AND "userId" = old."id");
END;

INSERT INTO "customer_search" ("userId", "scope", "name", "email")
    SELECT "id", CASE WHEN "role" = 'user' THEN "storeId" ELSE '' END, "name", "email" FROM "users" ORDER BY "createdAt", "id";
