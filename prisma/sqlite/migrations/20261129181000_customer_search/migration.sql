-- Store Admin's customer search: an FTS5 index of every account's name and email, kept by
-- triggers so no write path can forget it. Each word of a question is a prefix of a word of the
-- name or the email (the tokenizer splits an email at its dots and its at sign). "scope" holds
-- the Store's id for an account whose role is exactly "user" (nothing for an admin), so a search
-- and its count are answered from the index alone, never from every customer of the Store. "userId" is indexed too, so a rename finds its row without a scan. An
-- account keeps its row (its rowid) when renamed: newest rowid first is the order accounts were
-- created in. A later migration that rebuilds "users" drops these triggers: recreate them there
-- (app/customers/admin-customers.server.test.ts fails when an account stops reaching the search).
CREATE VIRTUAL TABLE "customer_search" USING fts5(
    "userId",
    "scope",
    "name",
    "email",
    tokenize = 'unicode61 remove_diacritics 0'
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
