-- CreateIndex
CREATE INDEX "Node_graphId_ord_idx" ON "Node"("graphId", "ord");

-- CreateIndex
CREATE INDEX "Edge_graphId_edgeKey_idx" ON "Edge"("graphId", "edgeKey");

-- CreateIndex
CREATE INDEX "Edge_graphId_ord_idx" ON "Edge"("graphId", "ord");

