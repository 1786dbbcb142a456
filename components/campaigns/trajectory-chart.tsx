import type { Band, CampaignIteration } from "./campaign-api";

const BANDS: Array<{ band: Band; from: number; to: number }> = [
  { band: "Reject", from: 0, to: 50 },
  { band: "Major", from: 50, to: 65 },
  { band: "Minor", from: 65, to: 80 },
  { band: "Accept", from: 80, to: 100 },
];

const W = 560;
const H = 200;
// The band names sit right of the plot, so no dot covers them; dots are inset from the plot's edges.
const PAD = { left: 32, right: 56, top: 12, bottom: 28 };
const INSET = 18;

/** Kept (the baseline and accepted iterations: the line), reverted, or nothing tried (the state did not change). */
function dotKind(it: CampaignIteration): "kept" | "reverted" | "unchanged" {
  if (it.decision === "BASELINE" || it.accepted) return "kept";
  return it.decision === "NOTHING_TO_FIX" ? "unchanged" : "reverted";
}

/**
 * The score trajectory: overall per iteration on the band backgrounds. Accepted iterations are
 * filled dots joined by the line of the kept state; a reverted one is a hollow dot off the line.
 * The text version (`trajectoryText`) says the same for screen readers and without colour.
 */
export function TrajectoryChart({ iterations, bestIter }: { iterations: CampaignIteration[]; bestIter: number | null }) {
  const n = Math.max(1, iterations.length - 1);
  const x = (i: number) => PAD.left + INSET + ((W - PAD.left - PAD.right - 2 * INSET) * i) / n;
  const y = (score: number) => PAD.top + ((H - PAD.top - PAD.bottom) * (100 - score)) / 100;
  const kept = iterations.filter((it) => it.decision === "BASELINE" || it.accepted);
  const line = kept.map((it) => `${x(it.iter).toFixed(1)},${y(it.score.overall).toFixed(1)}`).join(" ");
  return (
    <figure className="trajectory" data-testid="campaign-trajectory">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={trajectoryText(iterations)}>
        {BANDS.map((b) => (
          <g key={b.band}>
            <rect x={PAD.left} width={W - PAD.left - PAD.right} y={y(b.to)} height={y(b.from) - y(b.to)} className={`trajectory__band trajectory__band--${b.band.toLowerCase()}`} />
            <text x={W - PAD.right + 6} y={(y(b.to) + y(b.from)) / 2 + 4} textAnchor="start" className="trajectory__band-label">
              {b.band}
            </text>
          </g>
        ))}
        {[0, 50, 65, 80, 100].map((v) => (
          <text key={v} x={PAD.left - 6} y={y(v) + 4} textAnchor="end" className="trajectory__tick">
            {v}
          </text>
        ))}
        <polyline points={line} className="trajectory__line" fill="none" />
        {iterations.map((it) => (
          <g key={it.iter}>
            <circle cx={x(it.iter)} cy={y(it.score.overall)} r={it.iter === bestIter ? 6 : 4} className={`trajectory__dot trajectory__dot--${dotKind(it)}`}>
              <title>{`iter ${it.iter}: ${it.score.overall.toFixed(1)} ${it.score.band} (${it.decision})`}</title>
            </circle>
            <text x={x(it.iter)} y={H - 8} textAnchor="middle" className="trajectory__tick">
              {`iter${it.iter}`}
            </text>
          </g>
        ))}
      </svg>
      <figcaption className="small">
        {trajectoryText(iterations)}
        <span className="trajectory__legend muted" aria-hidden="true">
          <span>
            <span className="trajectory__key trajectory__key--kept" />
            kept (baseline or accepted)
          </span>
          <span>
            <span className="trajectory__key trajectory__key--reverted" />
            reverted
          </span>
          <span>
            <span className="trajectory__key trajectory__key--unchanged" />
            nothing tried
          </span>
          {bestIter !== null ? <span>larger dot: the best iteration ({bestIter})</span> : null}
        </span>
      </figcaption>
    </figure>
  );
}

const WORDS: Record<string, string> = {
  ACCEPT: "accept",
  REVERT: "revert",
  HALT_PLATEAU: "accept; halt: plateau",
  HALT_TARGET_MET: "accept; halt: target met",
  NOTHING_TO_FIX: "nothing to fix",
  ERROR: "error",
};

export function trajectoryText(iterations: CampaignIteration[]): string {
  return iterations.map((it) => `iter${it.iter} ${it.score.overall.toFixed(1)} ${it.score.band}${WORDS[it.decision] ? ` (${WORDS[it.decision]})` : ""}`).join(" → ");
}
