-- AlterTable
ALTER TABLE "Graph" ADD COLUMN     "loopRetrieval" TEXT NOT NULL DEFAULT 'graphify_query';

-- CreateTable
CREATE TABLE "Ask" (
    "id" TEXT NOT NULL,
    "graphId" TEXT NOT NULL,
    "question" TEXT NOT NULL,
    "graphVersion" INTEGER NOT NULL,
    "provider" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "isLlm" BOOLEAN NOT NULL,
    "status" TEXT NOT NULL,
    "answers" TEXT,
    "trace" TEXT,
    "error" TEXT,
    "totalMs" INTEGER,
    "modelMs" INTEGER,
    "toolMs" INTEGER,
    "proposalId" TEXT,
    "startedById" TEXT,
    "startedByName" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "Ask_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Ask_graphId_createdAt_idx" ON "Ask"("graphId", "createdAt");

-- CreateIndex
CREATE INDEX "Ask_proposalId_createdAt_idx" ON "Ask"("proposalId", "createdAt");

-- CreateIndex
CREATE INDEX "Ask_status_idx" ON "Ask"("status");

-- AddForeignKey
ALTER TABLE "Ask" ADD CONSTRAINT "Ask_graphId_fkey" FOREIGN KEY ("graphId") REFERENCES "Graph"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Ask" ADD CONSTRAINT "Ask_proposalId_fkey" FOREIGN KEY ("proposalId") REFERENCES "Proposal"("id") ON DELETE SET NULL ON UPDATE CASCADE;

