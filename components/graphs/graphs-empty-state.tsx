export function GraphsEmptyState() {
  return (
    <div className="card empty-hero" data-testid="graphs-empty">
      <div className="empty-hero__icon" aria-hidden="true">
        <span />
        <span />
        <span />
      </div>
      <h2>No graphs yet</h2>
      <p className="muted">
        Import a knowledge graph to explore it: a graphify <code>graph.json</code> (with the source files beside it), a
        triple file (<code>subject|relation|object</code> or tab-separated), or a bundle folder holding{" "}
        <code>triples.jsonl</code>.
      </p>
      <div className="empty-hero__ways">
        <div>
          <h3>From the command line</h3>
          <pre className="snippet">npx refinery import ./graphify-out</pre>
        </div>
        <div>
          <h3>From this page</h3>
          <p className="muted">Use the import form below: give a path on the server, or upload a single file.</p>
        </div>
      </div>
    </div>
  );
}
