-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Proposal" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "graphId" TEXT NOT NULL,
    "runId" TEXT,
    "baseVersion" INTEGER NOT NULL,
    "source" TEXT NOT NULL,
    "question" TEXT,
    "status" TEXT NOT NULL,
    "submittedById" TEXT,
    "submittedByName" TEXT,
    "origin" TEXT NOT NULL DEFAULT 'person',
    "agentName" TEXT,
    "agentModel" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Proposal_graphId_fkey" FOREIGN KEY ("graphId") REFERENCES "Graph" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Proposal_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_Proposal" ("baseVersion", "createdAt", "graphId", "id", "question", "runId", "source", "status", "submittedById", "submittedByName", "updatedAt") SELECT "baseVersion", "createdAt", "graphId", "id", "question", "runId", "source", "status", "submittedById", "submittedByName", "updatedAt" FROM "Proposal";
DROP TABLE "Proposal";
ALTER TABLE "new_Proposal" RENAME TO "Proposal";
CREATE INDEX "Proposal_graphId_status_idx" ON "Proposal"("graphId", "status");
CREATE INDEX "Proposal_origin_idx" ON "Proposal"("origin");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;


-- Where existing proposals came from: a campaign, an agent (MCP), a refinement file (the CLI),
-- a run started from the command line (no account), or a person (the web or an API token; an
-- API token of an earlier version cannot be told from its owner, so it counts as the person).
UPDATE "Proposal" SET "origin" = 'campaign' WHERE "source" = 'campaign';
UPDATE "Proposal" SET "origin" = 'agent' WHERE "source" = 'agent';
UPDATE "Proposal" SET "origin" = 'cli' WHERE "source" = 'file';
UPDATE "Proposal" SET "origin" = 'cli' WHERE "source" = 'run' AND "submittedById" IS NULL AND ("runId" IS NULL OR "runId" IN (SELECT "id" FROM "Run" WHERE "startedById" IS NULL));
