"use client";

import { useState } from "react";
import type { RefinementAction } from "../api/run-types";
import { Spinner } from "../ui/states";
import { NodePicker } from "./node-picker";

type ActionType = RefinementAction["type"];

interface Draft {
  type: ActionType;
  subject: string;
  relation: string;
  object: string;
  old: string;
  new: string;
}

function toDraft(action: RefinementAction): Draft {
  return action.type === "replace_node"
    ? { type: action.type, subject: "", relation: "", object: "", old: action.old, new: action.new }
    : { type: action.type, subject: action.subject, relation: action.relation, object: action.object, old: "", new: "" };
}

function fromDraft(d: Draft): RefinementAction {
  return d.type === "replace_node"
    ? { type: d.type, old: d.old.trim(), new: d.new.trim() }
    : { type: d.type, subject: d.subject.trim(), relation: d.relation.trim(), object: d.object.trim() };
}

interface EditActionFormProps {
  /** The graph whose nodes the name fields offer as you type. */
  graph: string;
  action: RefinementAction;
  idPrefix: string;
  isPending: boolean;
  error: string | null;
  onSubmit: (action: RefinementAction) => void;
  onCancel: () => void;
}

/** Change an argument (or the kind of action); saving replaces the action and reviews it again. */
export function EditActionForm({ graph, action, idPrefix, isPending, error, onSubmit, onCancel }: EditActionFormProps) {
  const [draft, setDraft] = useState(() => toDraft(action));
  const fields: (keyof Draft)[] = draft.type === "replace_node" ? ["old", "new"] : ["subject", "relation", "object"];
  const label: Record<string, string> = { subject: "Subject", relation: "Relation", object: "Object", old: "Old name", new: "New name" };
  const isComplete = fields.every((f) => draft[f].trim() !== "");
  return (
    <form
      className="edit-form"
      data-testid="edit-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (isComplete && !isPending) onSubmit(fromDraft(draft));
      }}
    >
      <div className="edit-form__fields">
        <div className="field">
          <label htmlFor={`${idPrefix}-type`}>Action</label>
          <select id={`${idPrefix}-type`} value={draft.type} onChange={(e) => setDraft({ ...draft, type: e.target.value as ActionType })}>
            <option value="insert_edge">add link</option>
            <option value="delete_edge">remove link</option>
            <option value="replace_node">rename / merge</option>
          </select>
        </div>
        {fields.map((f) => (
          <div className="field" key={f}>
            <label htmlFor={`${idPrefix}-${f}`}>{label[f]}</label>
            {f === "relation" ? (
              <input id={`${idPrefix}-${f}`} value={draft[f]} maxLength={2000} onChange={(e) => setDraft({ ...draft, [f]: e.target.value })} data-testid={`edit-${f}`} />
            ) : (
              <NodePicker graph={graph} id={`${idPrefix}-${f}`} value={draft[f]} onChange={(v) => setDraft((d) => ({ ...d, [f]: v }))} testId={`edit-${f}`} />
            )}
          </div>
        ))}
      </div>
      <p className="hint">
        Type part of a name and pick the node from the list: the action then names that one node. A name the graph does not have creates a new
        node when an added link is approved. Saving reviews the action again at once; nothing is applied.
      </p>
      {error ? (
        <p className="inline-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="form__actions">
        <button type="submit" className="button button--primary button--small" disabled={!isComplete || isPending} data-testid="edit-save">
          {isPending ? <Spinner size={12} /> : null}
          Save and review again
        </button>
        <button type="button" className="button button--small" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
