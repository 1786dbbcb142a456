/**
 * Layout in two phases so that what existed before keeps its place:
 *  1. fcose lays out the "before" graph only: context, removed and merged nodes, changed nodes,
 *     and edges as they were (rewired edges at their old endpoints, via their ghosts);
 *  2. added nodes are seeded next to the neighbours they attach to (deterministically, from
 *     their id), then fcose relaxes them with every old node fixed where phase 1 put it.
 * Old positions are restored after phase 2 as well, so nothing that existed can move.
 */
import cytoscape from "cytoscape";
import type { Core, LayoutOptions, NodeSingular, Position } from "cytoscape";
import fcose from "cytoscape-fcose";

let fcoseRegistered = false;

export function ensureFcose(): void {
  if (fcoseRegistered) return;
  cytoscape.use(fcose);
  fcoseRegistered = true;
}

const SPACING = { idealEdgeLength: 95, nodeRepulsion: 9000, nodeSeparation: 85 };

async function runLayout(cy: Core, options: Record<string, unknown>, eles = cy.elements()): Promise<void> {
  const layout = eles.layout({ name: "fcose", animate: false, fit: false, packComponents: false, ...SPACING, ...options } as LayoutOptions);
  // fcose without animation may stop inside run(): listen first.
  const stopped = layout.pon("layoutstop");
  layout.run();
  await stopped;
}

function hash(text: string): number {
  let h = 2166136261;
  for (const ch of text) h = Math.imul(h ^ (ch.codePointAt(0) ?? 0), 16777619) >>> 0;
  return h;
}

/** Next to the already placed neighbours, at a stable angle; nodes attached to nothing placed go in a row on the right. */
function seedAddedNodes(cy: Core, added: NodeSingular[]): void {
  const old = cy.nodes().not(".added").nodes();
  const placed = new Set(old.map((n) => n.id()));
  const box = old.boundingBox();
  let pending = added;
  let spare = 0;
  while (pending.length > 0) {
    const next: NodeSingular[] = [];
    for (const node of pending) {
      const anchors = node.neighborhood().nodes().filter((n) => placed.has(n.id())).nodes();
      if (anchors.length === 0) {
        next.push(node);
        continue;
      }
      const centre = anchors.reduce((acc, n) => ({ x: acc.x + n.position().x / anchors.length, y: acc.y + n.position().y / anchors.length }), { x: 0, y: 0 });
      const angle = ((hash(node.id()) % 360) * Math.PI) / 180;
      node.position({ x: centre.x + Math.cos(angle) * SPACING.idealEdgeLength, y: centre.y + Math.sin(angle) * SPACING.idealEdgeLength });
      placed.add(node.id());
    }
    if (next.length === pending.length) {
      // Nothing attaches to a placed node: start a new cluster beside the drawing.
      const first = next.shift() as NodeSingular;
      first.position({ x: (Number.isFinite(box.x2) ? box.x2 : 0) + SPACING.idealEdgeLength, y: (Number.isFinite(box.y1) ? box.y1 : 0) + spare * SPACING.idealEdgeLength });
      placed.add(first.id());
      spare++;
    }
    pending = next;
  }
}

/** Resolves once every node has its place; stops early (quietly) if the instance is destroyed meanwhile. */
export async function runStableLayout(cy: Core): Promise<void> {
  const before = cy.nodes().not(".added").union(cy.edges(".context, .removed, .ghost, .merge-link"));
  if (before.nodes().length > 1) await runLayout(cy, { randomize: true, quality: "default" }, before);
  if (cy.destroyed()) return;
  const old = new Map<string, Position>(cy.nodes().not(".added").nodes().map((n): [string, Position] => [n.id(), { ...n.position() }]));
  const added = cy.nodes(".added").toArray();
  if (added.length === 0) return;
  // Only additions: nothing old to keep in place.
  if (old.size === 0) return runLayout(cy, { randomize: true, quality: "default" }, cy.elements().not(".ghost"));
  seedAddedNodes(cy, added);
  const fixedNodeConstraint = [...old].map(([nodeId, position]) => ({ nodeId, position }));
  // Rewired edges pull at their new endpoints now; ghosts are the old shape and stay out.
  await runLayout(cy, { randomize: false, quality: "proof", fixedNodeConstraint, numIter: 600 }, cy.elements().not(".ghost"));
  if (cy.destroyed()) return;
  cy.batch(() => {
    for (const [id, position] of old) cy.getElementById(id).position(position);
  });
}
