-- Store Admin's Order search: a GIN index of each Order's email by its words, read as the
-- customer search reads accounts (the dots, at sign, plus, underscore and hyphen as spaces, the
-- simple configuration), written at once rather than through a pending list. A search reads the
-- Orders it finds, or walks the Store's Orders newest first when a word is common, and stops at
-- its cap, instead of reading every Order for a substring. The expression must stay identical
-- to the one in app/orders/order-search.server.ts for this index to be used.
CREATE INDEX "orders_search_idx" ON "orders" USING GIN (to_tsvector('simple', translate("email", '.@+_-', '     '))) WITH (fastupdate = off);
