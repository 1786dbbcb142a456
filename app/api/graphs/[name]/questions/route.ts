import { addQuestions, findQuestions } from "@/lib/server/runs/questions";
import { requireActor } from "../../../_lib/auth";
import { respond } from "../../../_lib/respond";
import { runsContract } from "@/lib/server/runs/contract";
import { parseRequest } from "../../../_lib/parse-request";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export async function GET(request: Request, ctx: { params: Promise<{ name: string }> }) {
  return respond(async () => {
    await requireActor(request, "read");
    const { params, query } = await parseRequest(request, runsContract.findQuestions, ctx);
    const { name } = params;
    const { status } = query;
    return findQuestions({ graph: name, status });
  });
}

export async function POST(request: Request, ctx: { params: Promise<{ name: string }> }) {
  return respond(
    async () => {
      const actor = await requireActor(request, "propose");
      const { params, body } = await parseRequest(request, runsContract.addQuestions, ctx);
      const { name } = params;
      const { questions } = body;
      // The audit event is written in the same transaction as the questions.
      return addQuestions({ graph: name, texts: questions, source: "user", auditAs: actor });
    },
    { status: 201 },
  );
}
