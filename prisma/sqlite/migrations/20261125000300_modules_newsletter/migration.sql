-- Written by `npm run modules:compile` from the Module definitions (app/modules/registry.ts).
CREATE TABLE "mod_newsletter" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "store_id" TEXT NOT NULL REFERENCES "stores" ("id") ON DELETE CASCADE,
    "email" TEXT NOT NULL,
    "confirmed_at" TEXT,
    "unsubscribed_at" TEXT,
    "created_at" TEXT NOT NULL,
    "updated_at" TEXT NOT NULL
);
CREATE INDEX "mod_newsletter_created_at_id_idx" ON "mod_newsletter" ("store_id", "created_at", "id");
CREATE UNIQUE INDEX "mod_newsletter_email_key" ON "mod_newsletter" ("store_id", "email");
-- Written by hand: the newsletter's addresses move from the core table into the Module's, kept
-- as they were (times normalised to the ISO 8601 text the data service writes), then the core
-- table goes.
INSERT INTO "mod_newsletter" ("id", "store_id", "email", "confirmed_at", "unsubscribed_at", "created_at", "updated_at")
SELECT "id", "storeId", "email",
    CASE WHEN "confirmedAt" IS NULL THEN NULL WHEN typeof("confirmedAt") = 'integer' THEN strftime('%Y-%m-%dT%H:%M:%fZ', "confirmedAt" / 1000.0, 'unixepoch') ELSE strftime('%Y-%m-%dT%H:%M:%fZ', "confirmedAt") END,
    CASE WHEN "unsubscribedAt" IS NULL THEN NULL WHEN typeof("unsubscribedAt") = 'integer' THEN strftime('%Y-%m-%dT%H:%M:%fZ', "unsubscribedAt" / 1000.0, 'unixepoch') ELSE strftime('%Y-%m-%dT%H:%M:%fZ', "unsubscribedAt") END,
    CASE WHEN typeof("subscribedAt") = 'integer' THEN strftime('%Y-%m-%dT%H:%M:%fZ', "subscribedAt" / 1000.0, 'unixepoch') ELSE strftime('%Y-%m-%dT%H:%M:%fZ', "subscribedAt") END,
    CASE WHEN typeof("subscribedAt") = 'integer' THEN strftime('%Y-%m-%dT%H:%M:%fZ', "subscribedAt" / 1000.0, 'unixepoch') ELSE strftime('%Y-%m-%dT%H:%M:%fZ', "subscribedAt") END
FROM "newsletter_subscribers";
DROP TABLE "newsletter_subscribers";
