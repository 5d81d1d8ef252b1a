-- An Order lists its lines in the order the cart held them. Checkout writes each line's place in the
-- cart here, since a line's id is random. Lines written before read 0 and are listed by their id.
-- AlterTable
ALTER TABLE "order_lines" ADD COLUMN "position" INTEGER NOT NULL DEFAULT 0;
