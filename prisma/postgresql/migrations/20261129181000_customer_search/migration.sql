-- Store Admin's customer search: PostgreSQL full-text search over an account's name and email,
-- with the 'simple' configuration and the email's dots, at sign, plus, underscore and hyphen read
-- as spaces, so its words are those SQLite's FTS5 unicode61 tokenizer finds (the parser would
-- otherwise keep a whole email as one word). A search reads the accounts it finds rather than
-- every customer of the Store. The expression must stay identical to the one in
-- app/customers/admin-customers.server.ts for this index to be used.
CREATE INDEX "users_search_idx" ON "users" USING GIN (to_tsvector('simple', "name" || ' ' || translate("email", '.@+_-', '     ')));
