import { z } from "zod";
import { addQuestions, findQuestions } from "@/lib/server/runs/questions";
import { requireActor } from "../../../_lib/auth";
import { graphParams } from "../../../_lib/params";
import { readJson } from "../../../_lib/read-json";
import { respond } from "../../../_lib/respond";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const listQuery = z.object({ status: z.enum(["pending", "refined", "all"]).default("all") });
const addBody = z.object({ questions: z.array(z.string().trim().min(1, "a question is empty").max(4000)).min(1).max(1000) });

export async function GET(request: Request, ctx: { params: Promise<{ name: string }> }) {
  return respond(async () => {
    await requireActor(request, "read");
    const { name } = graphParams.parse(await ctx.params);
    const { status } = listQuery.parse(Object.fromEntries(new URL(request.url).searchParams));
    return findQuestions({ graph: name, status });
  });
}

export async function POST(request: Request, ctx: { params: Promise<{ name: string }> }) {
  return respond(
    async () => {
      const actor = await requireActor(request, "propose");
      const { name } = graphParams.parse(await ctx.params);
      const { questions } = addBody.parse(await readJson(request));
      // The audit event is written in the same transaction as the questions.
      return addQuestions({ graph: name, texts: questions, source: "user", auditAs: actor });
    },
    { status: 201 },
  );
}
