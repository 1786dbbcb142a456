/** The review's plausibility score (0–1), beside the label; nothing for reviews made before scores existed. */
export function ScoreTag({ score }: { score: number | null | undefined }) {
  if (typeof score !== "number" || !Number.isFinite(score)) return null;
  return (
    <span className="score-tag" data-testid="score" title="Plausibility score (0–1) from the review's signals; the label comes from it and the graph's thresholds">
      {score.toFixed(2)}
    </span>
  );
}

/** "+0.40" / "−0.30" (a real minus sign, so the column of numbers lines up). */
export function formatContribution(value: number): string {
  const abs = Math.abs(value).toFixed(2);
  if (abs === "0.00") return "±0.00";
  return value > 0 ? `+${abs}` : `\u2212${abs}`;
}
