-- AlterTable
ALTER TABLE "ProposalAction" ADD COLUMN     "obsoleteIn" INTEGER,
ADD COLUMN     "obsoleteReason" TEXT;

