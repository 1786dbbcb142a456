-- CreateTable
CREATE TABLE "NodeKey" (
    "pk" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "graphId" TEXT NOT NULL,
    "nodePk" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    CONSTRAINT "NodeKey_graphId_fkey" FOREIGN KEY ("graphId") REFERENCES "Graph" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "NodeKey_graphId_nodePk_idx" ON "NodeKey"("graphId", "nodePk");

