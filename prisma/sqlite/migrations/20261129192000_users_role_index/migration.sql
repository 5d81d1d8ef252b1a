-- The accounts whose role is anything but "user" (admins, whatever else a role string holds),
-- found through an index on the role rather than by reading every account: the pre-exposure
-- checklist on the Store Admin overview looks them up on every visit.

-- CreateIndex
CREATE INDEX "users_role_idx" ON "users"("role");
