-- CreateTable
CREATE TABLE "Campaign" (
    "id" TEXT NOT NULL,
    "graphId" TEXT NOT NULL,
    "baseVersion" INTEGER NOT NULL,
    "provider" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "isLlm" BOOLEAN NOT NULL,
    "questions" TEXT NOT NULL,
    "config" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "haltedBecause" TEXT,
    "bestIter" INTEGER,
    "error" TEXT,
    "proposalId" TEXT,
    "owner" TEXT,
    "heartbeatAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedById" TEXT,
    "startedByName" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "Campaign_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CampaignIteration" (
    "id" SERIAL NOT NULL,
    "campaignId" TEXT NOT NULL,
    "iter" INTEGER NOT NULL,
    "decision" TEXT NOT NULL,
    "overall" DOUBLE PRECISION NOT NULL,
    "data" TEXT NOT NULL,
    "worklog" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CampaignIteration_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Campaign_graphId_createdAt_idx" ON "Campaign"("graphId", "createdAt");

-- CreateIndex
CREATE INDEX "Campaign_status_idx" ON "Campaign"("status");

-- CreateIndex
CREATE UNIQUE INDEX "CampaignIteration_campaignId_iter_key" ON "CampaignIteration"("campaignId", "iter");

-- AddForeignKey
ALTER TABLE "Campaign" ADD CONSTRAINT "Campaign_graphId_fkey" FOREIGN KEY ("graphId") REFERENCES "Graph"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CampaignIteration" ADD CONSTRAINT "CampaignIteration_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign"("id") ON DELETE CASCADE ON UPDATE CASCADE;

