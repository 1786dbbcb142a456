-- CreateTable
CREATE TABLE "Graph" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "sourcePath" TEXT,
    "meta" TEXT NOT NULL,
    "currentVersion" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Graph_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "GraphVersion" (
    "id" SERIAL NOT NULL,
    "graphId" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "message" TEXT NOT NULL,
    "nodeCount" INTEGER NOT NULL,
    "edgeCount" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "GraphVersion_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Node" (
    "pk" SERIAL NOT NULL,
    "graphId" TEXT NOT NULL,
    "nodeId" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "normLabel" TEXT NOT NULL,
    "ord" INTEGER NOT NULL,
    "data" TEXT,
    "validFrom" INTEGER NOT NULL,
    "validTo" INTEGER,

    CONSTRAINT "Node_pkey" PRIMARY KEY ("pk")
);

-- CreateTable
CREATE TABLE "Edge" (
    "pk" SERIAL NOT NULL,
    "graphId" TEXT NOT NULL,
    "edgeKey" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "target" TEXT NOT NULL,
    "relation" TEXT NOT NULL,
    "ord" INTEGER NOT NULL,
    "data" TEXT,
    "validFrom" INTEGER NOT NULL,
    "validTo" INTEGER,

    CONSTRAINT "Edge_pkey" PRIMARY KEY ("pk")
);

-- CreateTable
CREATE TABLE "Document" (
    "pk" SERIAL NOT NULL,
    "graphId" TEXT NOT NULL,
    "docId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "title" TEXT,
    "path" TEXT,
    "text" TEXT NOT NULL,

    CONSTRAINT "Document_pkey" PRIMARY KEY ("pk")
);

-- CreateTable
CREATE TABLE "Question" (
    "pk" SERIAL NOT NULL,
    "graphId" TEXT NOT NULL,
    "queryId" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "answers" TEXT,
    "refined" BOOLEAN NOT NULL DEFAULT false,
    "ord" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Question_pkey" PRIMARY KEY ("pk")
);

-- CreateTable
CREATE TABLE "Run" (
    "id" TEXT NOT NULL,
    "graphId" TEXT NOT NULL,
    "questionPk" INTEGER,
    "queryId" TEXT NOT NULL,
    "question" TEXT NOT NULL,
    "graphVersion" INTEGER NOT NULL,
    "provider" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "isLlm" BOOLEAN NOT NULL,
    "config" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "error" TEXT,
    "earlyExit" BOOLEAN NOT NULL DEFAULT false,
    "abductionRaw" TEXT,
    "abduction" TEXT,
    "refinementRaw" TEXT,
    "actions" TEXT,
    "actionWarnings" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),
    "heartbeatAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "owner" TEXT,
    "startedById" TEXT,
    "startedByName" TEXT,

    CONSTRAINT "Run_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RunStep" (
    "id" SERIAL NOT NULL,
    "runId" TEXT NOT NULL,
    "step" INTEGER NOT NULL,
    "data" TEXT NOT NULL,
    "answerable" BOOLEAN NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RunStep_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "LlmCall" (
    "id" SERIAL NOT NULL,
    "runId" TEXT NOT NULL,
    "task" TEXT NOT NULL,
    "step" INTEGER,
    "attempt" INTEGER NOT NULL,
    "raw" TEXT NOT NULL,
    "latencyMs" INTEGER NOT NULL,
    "promptTokens" INTEGER,
    "completionTokens" INTEGER,
    "totalTokens" INTEGER,
    "error" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "LlmCall_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Setting" (
    "key" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Setting_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "Changeset" (
    "id" SERIAL NOT NULL,
    "graphId" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "baseVersion" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "ops" TEXT NOT NULL,
    "inverse" TEXT NOT NULL,
    "merges" TEXT NOT NULL,
    "summary" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "proposalId" TEXT,
    "revertOf" INTEGER,
    "actor" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Changeset_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Proposal" (
    "id" TEXT NOT NULL,
    "graphId" TEXT NOT NULL,
    "runId" TEXT,
    "baseVersion" INTEGER NOT NULL,
    "source" TEXT NOT NULL,
    "question" TEXT,
    "status" TEXT NOT NULL,
    "submittedById" TEXT,
    "submittedByName" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Proposal_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ProposalAction" (
    "id" SERIAL NOT NULL,
    "proposalId" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "action" TEXT NOT NULL,
    "review" TEXT NOT NULL,
    "confidence" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "appliedIn" INTEGER,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ProposalAction_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "User" (
    "id" TEXT NOT NULL,
    "username" TEXT NOT NULL,
    "displayName" TEXT NOT NULL,
    "passwordHash" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "disabledAt" TIMESTAMP(3),

    CONSTRAINT "User_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Session" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "csrfToken" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "lastSeenAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "ip" TEXT,
    "userAgent" TEXT,

    CONSTRAINT "Session_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ApiToken" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" TIMESTAMP(3),
    "expiresAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),

    CONSTRAINT "ApiToken_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "LoginAttempt" (
    "id" SERIAL NOT NULL,
    "username" TEXT NOT NULL,
    "ip" TEXT NOT NULL,
    "ok" BOOLEAN NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "LoginAttempt_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ApprovalPolicy" (
    "graphId" TEXT NOT NULL,
    "requiredHigh" INTEGER NOT NULL DEFAULT 1,
    "requiredMedium" INTEGER NOT NULL DEFAULT 1,
    "requiredLow" INTEGER NOT NULL DEFAULT 2,
    "lowNeedsReason" BOOLEAN NOT NULL DEFAULT true,
    "approverRole" TEXT NOT NULL DEFAULT 'reviewer',
    "bulkHigh" BOOLEAN NOT NULL DEFAULT true,
    "separateDuties" BOOLEAN NOT NULL DEFAULT true,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "updatedBy" TEXT,

    CONSTRAINT "ApprovalPolicy_pkey" PRIMARY KEY ("graphId")
);

-- CreateTable
CREATE TABLE "Approval" (
    "id" SERIAL NOT NULL,
    "actionId" INTEGER NOT NULL,
    "proposalId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "reason" TEXT,
    "graphVersion" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "withdrawnAt" TIMESTAMP(3),
    "dismissedAt" TIMESTAMP(3),
    "dismissedReason" TEXT,

    CONSTRAINT "Approval_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Comment" (
    "id" SERIAL NOT NULL,
    "proposalId" TEXT NOT NULL,
    "actionIndex" INTEGER,
    "userId" TEXT,
    "author" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Comment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AuditEvent" (
    "id" SERIAL NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actorKind" TEXT NOT NULL,
    "actorId" TEXT,
    "actorName" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "graphName" TEXT,
    "targetType" TEXT,
    "targetId" TEXT,
    "summary" TEXT NOT NULL,
    "details" TEXT,
    "ip" TEXT,

    CONSTRAINT "AuditEvent_pkey" PRIMARY KEY ("id")
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
CREATE INDEX "Node_graphId_ord_idx" ON "Node"("graphId", "ord");

-- CreateIndex
CREATE INDEX "Edge_graphId_validTo_idx" ON "Edge"("graphId", "validTo");

-- CreateIndex
CREATE INDEX "Edge_graphId_source_idx" ON "Edge"("graphId", "source");

-- CreateIndex
CREATE INDEX "Edge_graphId_target_idx" ON "Edge"("graphId", "target");

-- CreateIndex
CREATE INDEX "Edge_graphId_edgeKey_idx" ON "Edge"("graphId", "edgeKey");

-- CreateIndex
CREATE INDEX "Edge_graphId_ord_idx" ON "Edge"("graphId", "ord");

-- CreateIndex
CREATE UNIQUE INDEX "Document_graphId_docId_key" ON "Document"("graphId", "docId");

-- CreateIndex
CREATE UNIQUE INDEX "Question_graphId_queryId_key" ON "Question"("graphId", "queryId");

-- CreateIndex
CREATE INDEX "Run_graphId_createdAt_idx" ON "Run"("graphId", "createdAt");

-- CreateIndex
CREATE INDEX "Run_status_idx" ON "Run"("status");

-- CreateIndex
CREATE UNIQUE INDEX "RunStep_runId_step_key" ON "RunStep"("runId", "step");

-- CreateIndex
CREATE INDEX "LlmCall_runId_idx" ON "LlmCall"("runId");

-- CreateIndex
CREATE UNIQUE INDEX "Changeset_graphId_version_key" ON "Changeset"("graphId", "version");

-- CreateIndex
CREATE INDEX "Proposal_graphId_status_idx" ON "Proposal"("graphId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "ProposalAction_proposalId_index_key" ON "ProposalAction"("proposalId", "index");

-- CreateIndex
CREATE UNIQUE INDEX "User_username_key" ON "User"("username");

-- CreateIndex
CREATE INDEX "Session_userId_idx" ON "Session"("userId");

-- CreateIndex
CREATE INDEX "Session_expiresAt_idx" ON "Session"("expiresAt");

-- CreateIndex
CREATE UNIQUE INDEX "ApiToken_tokenHash_key" ON "ApiToken"("tokenHash");

-- CreateIndex
CREATE INDEX "ApiToken_userId_idx" ON "ApiToken"("userId");

-- CreateIndex
CREATE INDEX "LoginAttempt_username_createdAt_idx" ON "LoginAttempt"("username", "createdAt");

-- CreateIndex
CREATE INDEX "LoginAttempt_ip_createdAt_idx" ON "LoginAttempt"("ip", "createdAt");

-- CreateIndex
CREATE INDEX "Approval_actionId_idx" ON "Approval"("actionId");

-- CreateIndex
CREATE INDEX "Approval_proposalId_idx" ON "Approval"("proposalId");

-- CreateIndex
CREATE INDEX "Comment_proposalId_createdAt_idx" ON "Comment"("proposalId", "createdAt");

-- CreateIndex
CREATE INDEX "AuditEvent_at_idx" ON "AuditEvent"("at");

-- CreateIndex
CREATE INDEX "AuditEvent_action_at_idx" ON "AuditEvent"("action", "at");

-- CreateIndex
CREATE INDEX "AuditEvent_graphName_at_idx" ON "AuditEvent"("graphName", "at");

-- CreateIndex
CREATE INDEX "AuditEvent_actorName_at_idx" ON "AuditEvent"("actorName", "at");

-- AddForeignKey
ALTER TABLE "GraphVersion" ADD CONSTRAINT "GraphVersion_graphId_fkey" FOREIGN KEY ("graphId") REFERENCES "Graph"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Node" ADD CONSTRAINT "Node_graphId_fkey" FOREIGN KEY ("graphId") REFERENCES "Graph"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Edge" ADD CONSTRAINT "Edge_graphId_fkey" FOREIGN KEY ("graphId") REFERENCES "Graph"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Document" ADD CONSTRAINT "Document_graphId_fkey" FOREIGN KEY ("graphId") REFERENCES "Graph"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Question" ADD CONSTRAINT "Question_graphId_fkey" FOREIGN KEY ("graphId") REFERENCES "Graph"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Run" ADD CONSTRAINT "Run_graphId_fkey" FOREIGN KEY ("graphId") REFERENCES "Graph"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Run" ADD CONSTRAINT "Run_questionPk_fkey" FOREIGN KEY ("questionPk") REFERENCES "Question"("pk") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RunStep" ADD CONSTRAINT "RunStep_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LlmCall" ADD CONSTRAINT "LlmCall_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Changeset" ADD CONSTRAINT "Changeset_graphId_fkey" FOREIGN KEY ("graphId") REFERENCES "Graph"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Changeset" ADD CONSTRAINT "Changeset_proposalId_fkey" FOREIGN KEY ("proposalId") REFERENCES "Proposal"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Proposal" ADD CONSTRAINT "Proposal_graphId_fkey" FOREIGN KEY ("graphId") REFERENCES "Graph"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Proposal" ADD CONSTRAINT "Proposal_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ProposalAction" ADD CONSTRAINT "ProposalAction_proposalId_fkey" FOREIGN KEY ("proposalId") REFERENCES "Proposal"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Session" ADD CONSTRAINT "Session_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApiToken" ADD CONSTRAINT "ApiToken_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApprovalPolicy" ADD CONSTRAINT "ApprovalPolicy_graphId_fkey" FOREIGN KEY ("graphId") REFERENCES "Graph"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Approval" ADD CONSTRAINT "Approval_actionId_fkey" FOREIGN KEY ("actionId") REFERENCES "ProposalAction"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Approval" ADD CONSTRAINT "Approval_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Comment" ADD CONSTRAINT "Comment_proposalId_fkey" FOREIGN KEY ("proposalId") REFERENCES "Proposal"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- One run of a question at a time, whichever app instance starts it (hand-written: Prisma's
-- schema language has no partial indexes; the same index exists in the SQLite migrations).
CREATE UNIQUE INDEX "Run_one_running_per_question" ON "Run"("graphId", "queryId") WHERE "status" = 'running';
