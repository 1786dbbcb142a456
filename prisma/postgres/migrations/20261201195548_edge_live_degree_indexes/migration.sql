-- Hand-written (Prisma cannot express partial indexes): a node's live degree for SQL retrieval
-- (lib/server/graphs/sql-retrieval.ts) without reading the Edge heap. Edges never closed
-- ("validTo" NULL: nearly all of them) are counted by an index-only scan of the first two,
-- whose keys deduplicate (most edges share "validFrom"), so they stay about as small as the
-- (graphId, source) index; edges closed by a later version are few and have their own indexes.
CREATE INDEX "Edge_graphId_source_live_idx" ON "Edge" ("graphId", "source", "validFrom") WHERE "validTo" IS NULL;
CREATE INDEX "Edge_graphId_target_live_idx" ON "Edge" ("graphId", "target", "validFrom") WHERE "validTo" IS NULL;
CREATE INDEX "Edge_graphId_source_closed_idx" ON "Edge" ("graphId", "source") WHERE "validTo" IS NOT NULL;
CREATE INDEX "Edge_graphId_target_closed_idx" ON "Edge" ("graphId", "target") WHERE "validTo" IS NOT NULL;
