"use client";

import { useState } from "react";
import type { FormEvent } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { fetchJson } from "@/components/api/fetch-json";
import { Spinner } from "@/components/ui/states";
import type { ConnectionCheck, LlmSettingsView } from "@/lib/server/providers/settings-store";
import { OWN_PROGRESS } from "@/components/api/own-progress";

export type { LlmSettingsView };

type Form = Record<"provider" | "baseUrl" | "model" | "temperature" | "timeoutMs" | "maxRetries" | "concurrency" | "maxTokens", string>;

function toForm(view: LlmSettingsView): Form {
  const e = view.effective;
  return {
    provider: e.provider,
    baseUrl: e.baseUrl ?? "",
    model: e.model ?? "",
    temperature: String(e.temperature),
    timeoutMs: String(e.timeoutMs),
    maxRetries: String(e.maxRetries),
    concurrency: String(e.concurrency),
    maxTokens: e.maxTokens === null ? "" : String(e.maxTokens),
  };
}

const FIELDS: { key: keyof Form; label: string; hint: string; placeholder?: string }[] = [
  { key: "baseUrl", label: "Base URL", hint: "Any OpenAI-compatible server: vLLM, Ollama, llama.cpp, LM Studio, OpenAI.", placeholder: "http://localhost:8000/v1" },
  { key: "model", label: "Model", hint: "As the server names it, e.g. a DeepRefine-8B GGUF build.", placeholder: "deeprefine-8b" },
  { key: "temperature", label: "Temperature", hint: "0 to 2." },
  { key: "timeoutMs", label: "Timeout (ms)", hint: "Per attempt; a hung model frees its slot after this." },
  { key: "maxRetries", label: "Retries", hint: "On timeouts, 429 and 5xx, with backoff." },
  { key: "concurrency", label: "Concurrent requests", hint: "At most this many calls in flight." },
  { key: "maxTokens", label: "Max tokens", hint: "Optional cap on each answer.", placeholder: "server default" },
];

export function LlmSettingsForm({ initial }: { initial: LlmSettingsView }) {
  const [view, setView] = useState(initial);
  const [form, setForm] = useState<Form>(() => toForm(initial));
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (body: Form) => fetchJson<LlmSettingsView>("/api/settings/llm", { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
    onSuccess: (next) => {
      setView(next);
      setForm(toForm(next));
      void queryClient.invalidateQueries({ queryKey: ["provider"] });
    },
  });
  // The form's values as they are now, saved or not: testing what was typed is the point.
  const check = useMutation({
    meta: OWN_PROGRESS,
    mutationFn: (values: Form) => fetchJson<ConnectionCheck>("/api/settings/llm/check", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(values) }),
  });
  const set = (key: keyof Form) => (value: string) => setForm((f) => ({ ...f, [key]: value }));
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    check.reset();
    save.mutate(form);
  };
  const isOpenAi = form.provider === "openai";
  const isDirty = JSON.stringify(form) !== JSON.stringify(toForm(view));

  return (
    <form className="card form settings-form" onSubmit={onSubmit} aria-label="LLM settings">
      <div className="field">
        <label htmlFor="provider">Provider</label>
        <select id="provider" value={form.provider} onChange={(e) => set("provider")(e.target.value)}>
          <option value="heuristic">heuristic — rule-based, offline, not an LLM</option>
          <option value="openai">openai — an OpenAI-compatible chat-completions server</option>
          <option value="replay">replay — answers from a recorded file (tests, demos)</option>
        </select>
        {form.provider === "heuristic" && (
          <span className="hint">Deterministic rules over the graph and its corpus; no model is called. Runs say so in every trace.</span>
        )}
      </div>
      <div className="settings-form__grid" aria-disabled={!isOpenAi}>
        {FIELDS.map((f) => (
          <div className="field" key={f.key}>
            <label htmlFor={f.key}>
              {f.label}
              {view.overridden.includes(f.key) && <span className="badge badge--quiet settings-form__source">saved here</span>}
            </label>
            <input id={f.key} value={form[f.key]} placeholder={f.placeholder} onChange={(e) => set(f.key)(e.target.value)} disabled={!isOpenAi} />
            <span className="hint">{f.hint}</span>
          </div>
        ))}
      </div>
      <p className="hint">
        API key: {view.apiKeySource === "environment" ? "set in the environment (REFINERY_LLM_API_KEY)" : "none (fine for local servers)"}.
      </p>
      <div className="form__actions">
        <button className="button button--primary" type="submit" disabled={save.isPending}>
          {save.isPending && <Spinner size={14} />} Save
        </button>
        <button className="button" type="button" disabled={check.isPending || save.isPending} onClick={() => check.mutate(form)}>
          {check.isPending && <Spinner size={14} />} Test the connection{isDirty ? " (unsaved values)" : ""}
        </button>
        {save.isSuccess && !save.isPending && <span className="hint" role="status">Saved. New runs use these settings.</span>}
      </div>
      {save.isError && (
        <p className="form-error" role="alert">
          {save.error.message}
        </p>
      )}
      {check.data && (
        <p className={check.data.ok ? "form-success" : "form-error"} role="status">
          {check.data.ok
            ? `${check.data.provider} answered in ${check.data.latencyMs} ms (${check.data.model ?? "model unknown"}): ${check.data.detail}`
            : `No answer after ${check.data.latencyMs} ms: ${check.data.detail}`}
        </p>
      )}
      {check.isError && <p className="form-error">{check.error.message}</p>}
    </form>
  );
}
