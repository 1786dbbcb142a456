-- Hand-written (not in schema.prisma: only PostgreSQL's SQL retrieval reads it): every node's
-- live degree at one version, written once per version by lib/server/graphs/sql-retrieval.ts
-- with the version's whole-graph figures (the same pass over the edges), so that a fetched node's
-- degree is one index probe instead of counting its edges. Nodes without edges have no row.
-- Only the newest versions keep rows; older versions count their edges instead.
CREATE TABLE "NodeDegree" (
    "graphId" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "nodeId" TEXT NOT NULL,
    "degree" INTEGER NOT NULL,
    CONSTRAINT "NodeDegree_pkey" PRIMARY KEY ("graphId", "version", "nodeId"),
    CONSTRAINT "NodeDegree_graphId_fkey" FOREIGN KEY ("graphId") REFERENCES "Graph"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
