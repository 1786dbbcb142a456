import Link from "next/link";

export default function GraphNotFound() {
  return (
    <div className="card empty-hero">
      <h1>Graph not found</h1>
      <p className="muted">There is no graph by that name. It may have been deleted, or the link has a typo.</p>
      <Link href="/" className="button">
        See all graphs
      </Link>
    </div>
  );
}
