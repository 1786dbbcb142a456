-- DropIndex
DROP INDEX "Node_graphId_validTo_idx";

-- DropIndex
DROP INDEX "Edge_graphId_validTo_idx";

