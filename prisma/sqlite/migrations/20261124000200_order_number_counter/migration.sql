-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_stores" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "handle" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "currency" TEXT NOT NULL DEFAULT 'USD',
    "locale" TEXT NOT NULL DEFAULT 'en-US',
    "requireAdminTwoFactor" BOOLEAN NOT NULL DEFAULT false,
    "lastOrderNumber" INTEGER NOT NULL DEFAULT 1000,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);
INSERT INTO "new_stores" ("createdAt", "currency", "handle", "id", "locale", "name", "requireAdminTwoFactor", "updatedAt") SELECT "createdAt", "currency", "handle", "id", "locale", "name", "requireAdminTwoFactor", "updatedAt" FROM "stores";
DROP TABLE "stores";
ALTER TABLE "new_stores" RENAME TO "stores";
CREATE UNIQUE INDEX "stores_handle_key" ON "stores"("handle");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;


-- Existing stores keep their numbering: the counter starts at the highest number already given.
UPDATE "stores" SET "lastOrderNumber" = MAX(1000, COALESCE((SELECT MAX("number") FROM "orders" WHERE "orders"."storeId" = "stores"."id"), 1000));
