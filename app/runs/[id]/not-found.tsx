import Link from "next/link";

export default function RunNotFound() {
  return (
    <div className="card empty-hero">
      <h1>Run not found</h1>
      <p className="muted">There is no run with that id. Runs are listed on each graph&apos;s Runs tab.</p>
      <Link href="/" className="button">
        See all graphs
      </Link>
    </div>
  );
}
