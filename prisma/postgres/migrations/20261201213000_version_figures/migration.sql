-- Hand-written (not in schema.prisma: only PostgreSQL's SQL retrieval reads them), issue #17
-- item 1: a version's whole-graph figures cost what the version changed
-- (lib/server/graphs/sql-version-figures.ts).
--
-- One small row per version: its figures as JSON (node count, edges per relation, contexts, the
-- degree histogram), derived from the previous version's and the changeset, and the base of its
-- degrees in "NodeDegree" (null: not there). "figures" is null while a whole pass that has
-- written the degrees has not yet written the figures.
CREATE TABLE "VersionFigures" (
    "graphId" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "figures" TEXT,
    "degreeBase" INTEGER,
    CONSTRAINT "VersionFigures_pkey" PRIMARY KEY ("graphId", "version"),
    CONSTRAINT "VersionFigures_graphId_fkey" FOREIGN KEY ("graphId") REFERENCES "Graph"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- "NodeDegree" no longer holds every node per version: a base version holds every node with an
-- edge, later versions only the nodes whose degree they changed, and a node's degree at V is its
-- row with the greatest version <= V (from the base on): this index. The rows written before
-- (every node per version, no "VersionFigures" row saying so) are dropped: they are rewritten
-- once per graph on the next query.
DELETE FROM "NodeDegree";
CREATE INDEX "NodeDegree_graphId_nodeId_version_idx" ON "NodeDegree" ("graphId", "nodeId", "version");
