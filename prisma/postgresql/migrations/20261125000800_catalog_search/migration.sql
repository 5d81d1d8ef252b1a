-- Catalog search [R110]: PostgreSQL full-text search over a Product's title and description,
-- with the 'simple' configuration (no stemming, no stop words: the same matches as SQLite's
-- FTS5 unicode61 tokenizer). The expression must stay identical to the one in
-- app/catalog/search.server.ts for this index to be used.
CREATE INDEX "products_search_idx" ON "products" USING GIN (to_tsvector('simple', "title" || ' ' || "description"));
