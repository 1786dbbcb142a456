"use client";

import { useRouter } from "next/navigation";
import type { VersionInfo } from "../api/diff-types";
import { KIND_LABEL, versionHref } from "./version-format";

interface VersionCompareProps {
  graphName: string;
  versions: VersionInfo[];
  from: number;
  to: number;
}

function optionText(v: VersionInfo): string {
  return `v${v.version} · ${KIND_LABEL[v.kind]}${v.revertOf !== null ? ` of v${v.revertOf}` : ""}`;
}

/** Diff any two versions: either order works (an older `to` shows the change reversed). */
export function VersionCompare({ graphName, versions, from, to }: VersionCompareProps) {
  const router = useRouter();
  const go = (nextFrom: number, nextTo: number) => router.push(versionHref(graphName, nextTo, nextFrom));
  return (
    <form className="version-compare" aria-label="Compare versions" onSubmit={(e) => e.preventDefault()}>
      <label className="version-compare__field">
        <span>From</span>
        <select value={from} onChange={(e) => go(Number(e.target.value), to)} data-testid="compare-from">
          {versions.map((v) => (
            <option key={v.version} value={v.version}>
              {optionText(v)}
            </option>
          ))}
        </select>
      </label>
      <span aria-hidden="true" className="version-compare__arrow">
        →
      </span>
      <label className="version-compare__field">
        <span>To</span>
        <select value={to} onChange={(e) => go(from, Number(e.target.value))} data-testid="compare-to">
          {versions.map((v) => (
            <option key={v.version} value={v.version}>
              {optionText(v)}
            </option>
          ))}
        </select>
      </label>
      {from !== to - 1 && to > 1 ? (
        <button type="button" className="link-button small" onClick={() => go(to - 1, to)}>
          Only version {to}&apos;s own change
        </button>
      ) : null}
    </form>
  );
}
