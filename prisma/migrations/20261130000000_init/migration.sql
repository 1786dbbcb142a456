-- CreateTable
CREATE TABLE "Graph" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "sourcePath" TEXT,
    "meta" TEXT NOT NULL,
    "currentVersion" INTEGER NOT NULL DEFAULT 1,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "GraphVersion" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "graphId" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "message" TEXT NOT NULL,
    "nodeCount" INTEGER NOT NULL,
    "edgeCount" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "GraphVersion_graphId_fkey" FOREIGN KEY ("graphId") REFERENCES "Graph" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Node" (
    "pk" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "graphId" TEXT NOT NULL,
    "nodeId" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "normLabel" TEXT NOT NULL,
    "ord" INTEGER NOT NULL,
    "data" TEXT,
    "validFrom" INTEGER NOT NULL,
    "validTo" INTEGER,
    CONSTRAINT "Node_graphId_fkey" FOREIGN KEY ("graphId") REFERENCES "Graph" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Edge" (
    "pk" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "graphId" TEXT NOT NULL,
    "edgeKey" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "target" TEXT NOT NULL,
    "relation" TEXT NOT NULL,
    "ord" INTEGER NOT NULL,
    "data" TEXT,
    "validFrom" INTEGER NOT NULL,
    "validTo" INTEGER,
    CONSTRAINT "Edge_graphId_fkey" FOREIGN KEY ("graphId") REFERENCES "Graph" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Document" (
    "pk" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "graphId" TEXT NOT NULL,
    "docId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "title" TEXT,
    "path" TEXT,
    "text" TEXT NOT NULL,
    CONSTRAINT "Document_graphId_fkey" FOREIGN KEY ("graphId") REFERENCES "Graph" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Question" (
    "pk" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "graphId" TEXT NOT NULL,
    "queryId" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "answers" TEXT,
    "refined" BOOLEAN NOT NULL DEFAULT false,
    "ord" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Question_graphId_fkey" FOREIGN KEY ("graphId") REFERENCES "Graph" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "Graph_name_key" ON "Graph"("name");

-- CreateIndex
CREATE UNIQUE INDEX "GraphVersion_graphId_version_key" ON "GraphVersion"("graphId", "version");

-- CreateIndex
CREATE INDEX "Node_graphId_validTo_idx" ON "Node"("graphId", "validTo");

-- CreateIndex
CREATE INDEX "Node_graphId_nodeId_idx" ON "Node"("graphId", "nodeId");

-- CreateIndex
CREATE INDEX "Edge_graphId_validTo_idx" ON "Edge"("graphId", "validTo");

-- CreateIndex
CREATE INDEX "Edge_graphId_source_idx" ON "Edge"("graphId", "source");

-- CreateIndex
CREATE INDEX "Edge_graphId_target_idx" ON "Edge"("graphId", "target");

-- CreateIndex
CREATE UNIQUE INDEX "Document_graphId_docId_key" ON "Document"("graphId", "docId");

-- CreateIndex
CREATE UNIQUE INDEX "Question_graphId_queryId_key" ON "Question"("graphId", "queryId");

