/** The README's screenshots: docs/screenshots (`npm run screenshots` writes them there), served as /screenshots through the public/screenshots symlink. */
export interface Screenshot {
  name: string;
  title: string;
  caption: string;
}

export const SCREENSHOTS: Screenshot[] = [
  { name: "queue", title: "The review queue", caption: "Proposed changes from every run, labelled HIGH, MEDIUM or LOW with the reason, filterable and ready to approve." },
  { name: "proposal", title: "A proposal", caption: "Each action with its evidence (file and line, or the quoted passage), its warnings and its approvals." },
  { name: "run", title: "A run", caption: "The question, every hop of the loop, the triples it retrieved and the changes it proposed." },
  { name: "diff", title: "A version diff", caption: "What a version changed, drawn over its neighbourhood: added, merged and rewired elements, and the list of changes." },
];

export function screenshotSrc(name: string, viewport: "desktop" | "phone"): string {
  return `/screenshots/${name}-${viewport}.png`;
}
