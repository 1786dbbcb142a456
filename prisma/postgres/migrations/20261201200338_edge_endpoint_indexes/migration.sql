-- DropIndex
DROP INDEX "Edge_graphId_source_idx";

-- DropIndex
DROP INDEX "Edge_graphId_target_idx";

-- CreateIndex
CREATE INDEX "Edge_source_graphId_idx" ON "Edge"("source", "graphId");

-- CreateIndex
CREATE INDEX "Edge_target_graphId_idx" ON "Edge"("target", "graphId");

