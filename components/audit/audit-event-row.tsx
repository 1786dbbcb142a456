import Link from "next/link";
import { actorDisplayName, actorKindLabel, auditLinks, formatAuditTime } from "@/lib/audit/format-audit-event";
import type { AuditEventView } from "@/lib/audit/types";

function detailValue(value: unknown): string {
  if (typeof value === "string") return value;
  return JSON.stringify(value, null, 2) ?? String(value);
}

/** One event: time, who (and how), the sentence, links to what it concerns, details on demand. */
export function AuditEventRow({ event, timeZone, meaning }: { event: AuditEventView; timeZone: string; meaning: string | undefined }) {
  const name = actorDisplayName(event);
  const label = actorKindLabel(event.actorKind);
  const kind = label && label.toLowerCase() !== name.toLowerCase() ? label : null;
  const links = auditLinks(event);
  const details = Object.entries(event.details ?? {});
  const hasMore = details.length > 0 || event.targetType !== null || typeof event.ip === "string";
  return (
    <li className={`audit-event audit-event--${event.action.split(".")[0] ?? "other"}`} data-testid="audit-event" data-action={event.action}>
      <time className="audit-event__time mono" dateTime={event.at} title={event.at}>
        {formatAuditTime(event, timeZone)}
      </time>
      <div className="audit-event__body">
        <p className="audit-event__sentence">
          <strong className="audit-event__actor">{name}</strong>
          {kind && <span className={`badge badge--quiet audit-kind audit-kind--${event.actorKind}`}>{kind}</span>} <span>{event.summary}</span>
        </p>
        <div className="audit-event__meta small">
          <span className="audit-event__action mono" title={meaning}>
            {event.action}
          </span>
          {links.map((link) => (
            <Link key={link.href} href={link.href} className="audit-event__link">
              {link.label}
            </Link>
          ))}
          {hasMore && (
            <details className="audit-event__details">
              <summary>Details</summary>
              <dl>
                {event.targetType && (
                  <div>
                    <dt>concerns</dt>
                    <dd className="mono">
                      {event.targetType}
                      {event.targetId ? ` ${event.targetId}` : ""}
                    </dd>
                  </div>
                )}
                {details.map(([key, value]) => (
                  <div key={key}>
                    <dt>{key}</dt>
                    <dd className="mono">{detailValue(value)}</dd>
                  </div>
                ))}
                {typeof event.ip === "string" && (
                  <div>
                    <dt>IP address</dt>
                    <dd className="mono">{event.ip}</dd>
                  </div>
                )}
                <div>
                  <dt>at</dt>
                  <dd className="mono">{event.at}</dd>
                </div>
              </dl>
            </details>
          )}
        </div>
      </div>
    </li>
  );
}
