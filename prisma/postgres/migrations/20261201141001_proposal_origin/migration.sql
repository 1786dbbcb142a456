-- AlterTable
ALTER TABLE "Proposal" ADD COLUMN     "agentModel" TEXT,
ADD COLUMN     "agentName" TEXT,
ADD COLUMN     "origin" TEXT NOT NULL DEFAULT 'person';

-- CreateIndex
CREATE INDEX "Proposal_origin_idx" ON "Proposal"("origin");


-- Where existing proposals came from: a campaign, an agent (MCP), a refinement file (the CLI),
-- a run started from the command line (no account), or a person (the web or an API token; an
-- API token of an earlier version cannot be told from its owner, so it counts as the person).
UPDATE "Proposal" SET "origin" = 'campaign' WHERE "source" = 'campaign';
UPDATE "Proposal" SET "origin" = 'agent' WHERE "source" = 'agent';
UPDATE "Proposal" SET "origin" = 'cli' WHERE "source" = 'file';
UPDATE "Proposal" SET "origin" = 'cli' WHERE "source" = 'run' AND "submittedById" IS NULL AND ("runId" IS NULL OR "runId" IN (SELECT "id" FROM "Run" WHERE "startedById" IS NULL));
