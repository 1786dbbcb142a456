import type { Metadata } from "next";
import { notFound } from "next/navigation";
import type { RunDetails } from "@/components/api/run-types";
import { RunView } from "@/components/runs/run-view";
import { isAppError } from "@/lib/errors";
import { getRun } from "@/lib/server/runs/runs";
import { requirePageActor } from "@/app/_lib/page-actor";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

interface RunPageProps {
  params: Promise<{ id: string }>;
}

async function findRun(id: string): Promise<RunDetails | null> {
  try {
    // Typed as the components' copy of RunDetails: the compiler checks the two still agree.
    const run: RunDetails = await getRun(id);
    return run;
  } catch (error) {
    if (isAppError(error) && error.code === "NOT_FOUND") return null;
    throw error;
  }
}

export async function generateMetadata({ params }: RunPageProps): Promise<Metadata> {
  return { title: `Run ${(await params).id}` };
}

/** The run as it is now; while it runs the page follows it over server-sent events. */
export default async function RunPage({ params }: RunPageProps) {
  await requirePageActor();
  const run = await findRun((await params).id);
  if (!run) notFound();
  return <RunView initialRun={run} />;
}
