"use client";

import Link from "next/link";
import { useParams } from "next/navigation";
import { versionsHref } from "@/components/diff/version-format";

/** Also reached when the graph itself is missing: both links lead somewhere that exists or explains. */
export default function VersionNotFound() {
  const params = useParams<{ name?: string; version?: string }>();
  const name = params.name ? decodeURIComponent(params.name) : null;
  return (
    <div className="card empty-hero" data-testid="version-not-found">
      <h1>Version not found</h1>
      <p className="muted">
        {name ? `Graph “${name}” has no version ${params.version ?? ""}` : "There is no such version"}, or the graph does not exist. Versions are
        numbered from 1, the import, up to the current one.
      </p>
      <div className="row">
        {name ? (
          <Link href={versionsHref(name)} className="button button--primary">
            See the versions
          </Link>
        ) : null}
        <Link href="/" className="button">
          See all graphs
        </Link>
      </div>
    </div>
  );
}
