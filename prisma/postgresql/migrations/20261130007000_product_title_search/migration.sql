-- Store Admin's product search: a GIN index of the words of each Product's title alone (the
-- catalog index holds the title and description together), written at once rather than through
-- a pending list. A search reads the Products it finds instead of matching a substring against
-- every Product of the Store. The expression must stay identical to the one in
-- app/catalog/search.server.ts for this index to be used.
CREATE INDEX "products_title_search_idx" ON "products" USING GIN (to_tsvector('simple', "title")) WITH (fastupdate = off);
