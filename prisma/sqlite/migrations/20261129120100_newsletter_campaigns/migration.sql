-- CreateTable
CREATE TABLE "newsletter_campaigns" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "storeId" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "test" BOOLEAN NOT NULL DEFAULT false,
    "recipients" INTEGER NOT NULL DEFAULT 0,
    "idempotencyKey" TEXT NOT NULL,
    "createdById" TEXT,
    "createdByEmail" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "newsletter_campaigns_storeId_fkey" FOREIGN KEY ("storeId") REFERENCES "stores" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- AlterTable: the new column at the end, so the table is not rebuilt
ALTER TABLE "outbox_mail" ADD COLUMN "priority" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE INDEX "newsletter_campaigns_storeId_createdAt_idx" ON "newsletter_campaigns"("storeId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "newsletter_campaigns_storeId_idempotencyKey_key" ON "newsletter_campaigns"("storeId", "idempotencyKey");

