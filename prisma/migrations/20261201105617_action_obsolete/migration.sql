-- AlterTable
ALTER TABLE "ProposalAction" ADD COLUMN "obsoleteIn" INTEGER;
ALTER TABLE "ProposalAction" ADD COLUMN "obsoleteReason" TEXT;

