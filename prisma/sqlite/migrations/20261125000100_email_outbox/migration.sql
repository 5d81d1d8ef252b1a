-- AlterTable
ALTER TABLE "newsletter_subscribers" ADD COLUMN "confirmedAt" DATETIME;

-- CreateTable
CREATE TABLE "outbox_mail" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "storeId" TEXT NOT NULL,
    "dedupeKey" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "subjectId" TEXT NOT NULL,
    "toAddress" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "leaseUntil" DATETIME,
    "lastError" TEXT,
    "sentAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "outbox_mail_storeId_fkey" FOREIGN KEY ("storeId") REFERENCES "stores" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "outbox_mail_status_nextAttemptAt_idx" ON "outbox_mail"("status", "nextAttemptAt");

-- CreateIndex
CREATE UNIQUE INDEX "outbox_mail_storeId_dedupeKey_key" ON "outbox_mail"("storeId", "dedupeKey");


-- Subscribers from before double opt-in stay on the list: they subscribed under the rules of their day.
UPDATE "newsletter_subscribers" SET "confirmedAt" = "subscribedAt" WHERE "unsubscribedAt" IS NULL;
