import type { Metadata } from "next";
import { notFound } from "next/navigation";
import type { AskDetails } from "@/components/api/ask-types";
import { AskView } from "@/components/ask/ask-view";
import { isAppError } from "@/lib/errors";
import { getAsk } from "@/lib/server/asks/asks";
import { findGraphSummary } from "../find-graph-summary";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

interface AskPageProps {
  params: Promise<{ name: string }>;
  searchParams: Promise<{ ask?: string | string[] }>;
}

export async function generateMetadata({ params }: AskPageProps): Promise<Metadata> {
  return { title: `Ask · ${(await params).name}` };
}

async function findAsk(id: string | null, graph: string): Promise<AskDetails | null> {
  if (!id) return null;
  try {
    // Typed as the components' copy: the compiler checks the two still agree.
    const ask: AskDetails = await getAsk(id);
    return ask.graph === graph ? ask : null;
  } catch (error) {
    if (isAppError(error) && error.code === "NOT_FOUND") return null;
    throw error;
  }
}

export default async function AskPage({ params, searchParams }: AskPageProps) {
  const summary = await findGraphSummary((await params).name);
  if (!summary) notFound();
  const wanted = (await searchParams).ask;
  const askId = typeof wanted === "string" && wanted.length <= 100 ? wanted : null;
  const ask = await findAsk(askId, summary.name);
  return <AskView graphName={summary.name} initialAskId={ask ? ask.id : null} initialAsk={ask} />;
}
