import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { QuestionsView } from "@/components/questions/questions-view";
import { findGraphSummary } from "../find-graph-summary";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

interface QuestionsPageProps {
  params: Promise<{ name: string }>;
}

export async function generateMetadata({ params }: QuestionsPageProps): Promise<Metadata> {
  return { title: `Questions · ${(await params).name}` };
}

export default async function QuestionsPage({ params }: QuestionsPageProps) {
  const summary = await findGraphSummary((await params).name);
  if (!summary) notFound();
  return <QuestionsView graphName={summary.name} sourcePath={summary.sourcePath} />;
}
