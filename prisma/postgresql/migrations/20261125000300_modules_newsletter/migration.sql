-- Written by `npm run modules:compile` from the Module definitions (app/modules/registry.ts).
CREATE TABLE "mod_newsletter" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "store_id" TEXT NOT NULL REFERENCES "stores" ("id") ON DELETE CASCADE,
    "email" VARCHAR(320) NOT NULL,
    "confirmed_at" TIMESTAMPTZ(3),
    "unsubscribed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL
);
CREATE INDEX "mod_newsletter_created_at_id_idx" ON "mod_newsletter" ("store_id", "created_at", "id");
CREATE UNIQUE INDEX "mod_newsletter_email_key" ON "mod_newsletter" ("store_id", "email");
-- Written by hand: the newsletter's addresses move from the core table into the Module's, kept
-- as they were (Prisma's TIMESTAMP(3) holds UTC), then the core table goes.
INSERT INTO "mod_newsletter" ("id", "store_id", "email", "confirmed_at", "unsubscribed_at", "created_at", "updated_at")
SELECT "id", "storeId", "email", "confirmedAt" AT TIME ZONE 'UTC', "unsubscribedAt" AT TIME ZONE 'UTC', "subscribedAt" AT TIME ZONE 'UTC', "subscribedAt" AT TIME ZONE 'UTC'
FROM "newsletter_subscribers";
DROP TABLE "newsletter_subscribers";
