import Link from "next/link";

export default function NotFound() {
  return (
    <div className="card empty-hero">
      <h1>Page not found</h1>
      <p className="muted">Nothing lives at this address.</p>
      <Link href="/" className="button">
        See all graphs
      </Link>
    </div>
  );
}
