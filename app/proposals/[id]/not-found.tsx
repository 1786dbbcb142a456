import Link from "next/link";

export default function ProposalNotFound() {
  return (
    <div className="card empty-hero">
      <h1>Proposal not found</h1>
      <p className="muted">There is no proposal with that id. It may belong to a graph that was deleted.</p>
      <Link href="/review" className="button">
        Back to the review queue
      </Link>
    </div>
  );
}
