-- CreateTable
CREATE TABLE "Changeset" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "graphId" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "baseVersion" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "ops" TEXT NOT NULL,
    "inverse" TEXT NOT NULL,
    "merges" TEXT NOT NULL,
    "summary" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "proposalId" TEXT,
    "revertOf" INTEGER,
    "actor" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Changeset_graphId_fkey" FOREIGN KEY ("graphId") REFERENCES "Graph" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Changeset_proposalId_fkey" FOREIGN KEY ("proposalId") REFERENCES "Proposal" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Proposal" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "graphId" TEXT NOT NULL,
    "runId" TEXT,
    "baseVersion" INTEGER NOT NULL,
    "source" TEXT NOT NULL,
    "question" TEXT,
    "status" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Proposal_graphId_fkey" FOREIGN KEY ("graphId") REFERENCES "Graph" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Proposal_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ProposalAction" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "proposalId" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "action" TEXT NOT NULL,
    "review" TEXT NOT NULL,
    "confidence" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "appliedIn" INTEGER,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "ProposalAction_proposalId_fkey" FOREIGN KEY ("proposalId") REFERENCES "Proposal" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "Changeset_graphId_version_key" ON "Changeset"("graphId", "version");

-- CreateIndex
CREATE INDEX "Proposal_graphId_status_idx" ON "Proposal"("graphId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "ProposalAction_proposalId_index_key" ON "ProposalAction"("proposalId", "index");

