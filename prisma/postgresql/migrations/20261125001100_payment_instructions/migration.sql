-- AlterTable
ALTER TABLE "connections" ADD COLUMN     "paymentInstructions" TEXT;

