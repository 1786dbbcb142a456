"use client";

import { useEffect, useId, useState } from "react";
import type { KeyboardEvent } from "react";
import { useSearchNodes } from "../api/search-nodes";
import { displayText } from "@/lib/text/display-text";

interface NodePickerProps {
  graph: string;
  id: string;
  value: string;
  onChange: (value: string) => void;
  testId?: string;
}

/** Wait this long after the last keystroke before searching: one request per pause, not per key. */
const DEBOUNCE_MS = 200;

/**
 * A name field that finds nodes as you type (the graph's search API) and, on a pick, writes the
 * node's qualified name (`client.py::Client`, or its id where that is the only exact handle), so
 * the action names that one node. Free text stays allowed: an insert may name a new node.
 */
export function NodePicker({ graph, id, value, onChange, testId }: NodePickerProps) {
  const [query, setQuery] = useState("");
  const [isOpen, setIsOpen] = useState(false);
  const [active, setActive] = useState(0);
  const [picked, setPicked] = useState<{ label: string; qualified: string } | null>(null);
  const listId = useId();
  useEffect(() => {
    const timer = setTimeout(() => setQuery(value.trim()), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [value]);
  const search = useSearchNodes(graph, isOpen ? query : "");
  const hits = (search.data?.hits ?? []).slice(0, 8);
  const shown = isOpen && query !== "" && hits.length > 0;

  const pick = (index: number) => {
    const hit = hits[index];
    if (!hit) return;
    onChange(hit.qualified);
    setPicked({ label: hit.label, qualified: hit.qualified });
    setIsOpen(false);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (!shown) return;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      const step = event.key === "ArrowDown" ? 1 : -1;
      setActive((a) => (a + step + hits.length) % hits.length);
    } else if (event.key === "Enter") {
      event.preventDefault();
      pick(active);
    } else if (event.key === "Escape") {
      event.preventDefault();
      setIsOpen(false);
    }
  };

  return (
    <div className="node-picker">
      <input
        id={id}
        value={value}
        maxLength={2000}
        autoComplete="off"
        role="combobox"
        aria-expanded={shown}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={shown ? `${listId}-${active}` : undefined}
        onChange={(e) => {
          onChange(e.target.value);
          setPicked(null);
          setIsOpen(true);
          setActive(0);
        }}
        onFocus={() => setIsOpen(true)}
        onBlur={() => setIsOpen(false)}
        onKeyDown={onKeyDown}
        data-testid={testId}
      />
      {shown ? (
        <ul className="node-picker__list" id={listId} role="listbox" data-testid="node-picker-options">
          {hits.map((hit, i) => (
            <li
              key={hit.id}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === active}
              className={i === active ? "node-picker__option is-active" : "node-picker__option"}
              // mousedown, not click: the input's blur would close the list before a click lands.
              onMouseDown={(event) => {
                event.preventDefault();
                pick(i);
              }}
              onMouseEnter={() => setActive(i)}
              data-testid="node-picker-option"
            >
              <span className="node-picker__label">{displayText(hit.label, { max: 80 })}</span>
              {hit.qualified !== hit.label ? <span className="node-picker__where">{displayText(hit.qualified, { max: 80 })}</span> : null}
              <span className="node-picker__degree">{hit.degree} links</span>
            </li>
          ))}
        </ul>
      ) : null}
      {picked && picked.qualified === value ? (
        <span className="hint" data-testid="node-picker-picked">
          Names exactly the node {displayText(picked.label, { max: 80 })}.
        </span>
      ) : null}
    </div>
  );
}
