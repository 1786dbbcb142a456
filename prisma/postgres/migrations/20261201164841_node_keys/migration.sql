-- CreateTable
CREATE TABLE "NodeKey" (
    "pk" SERIAL NOT NULL,
    "graphId" TEXT NOT NULL,
    "nodePk" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "key" TEXT NOT NULL,

    CONSTRAINT "NodeKey_pkey" PRIMARY KEY ("pk")
);

-- CreateIndex
CREATE INDEX "NodeKey_graphId_nodePk_idx" ON "NodeKey"("graphId", "nodePk");

-- AddForeignKey
ALTER TABLE "NodeKey" ADD CONSTRAINT "NodeKey_graphId_fkey" FOREIGN KEY ("graphId") REFERENCES "Graph"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Hand-written (Prisma cannot express these): exact-key lookups, partial because a btree entry
-- must stay under ~2.7 kB (longer keys are sentences, looked up without the index), and
-- substring search over labels and source files through trigrams (pg_trgm is a trusted
-- extension: the database owner may create it).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX "NodeKey_graphId_kind_key_idx" ON "NodeKey" ("graphId", "kind", "key") WHERE length("key") <= 1000;
CREATE INDEX "NodeKey_key_trgm_idx" ON "NodeKey" USING gin ("key" gin_trgm_ops) WHERE "kind" IN ('l', 'f');
