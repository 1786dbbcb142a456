import "../styles/settings.css";
import { LlmSettingsForm } from "@/components/settings/llm-settings-form";
import { describeLlmSettings } from "@/lib/server/providers/settings-store";
import { requirePageActor } from "@/app/_lib/page-actor";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export default async function SettingsPage() {
  await requirePageActor();
  const view = await describeLlmSettings();
  return (
    <div className="stack">
      <div className="page-heading">
        <h1>Settings</h1>
        <p className="muted">
          The model the refinement loop asks. Values saved here override the <code>REFINERY_LLM_*</code> environment
          variables; clear a field to go back to the environment&apos;s value. The API key is read from{" "}
          <code>REFINERY_LLM_API_KEY</code> only and is never stored.
        </p>
      </div>
      <LlmSettingsForm initial={view} />
    </div>
  );
}
