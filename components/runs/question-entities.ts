/**
 * Which subgraph nodes the question names: a node is marked when every significant word of its
 * label occurs in the question ("Journal of Psychotherapy Integration" in "…which published
 * Journal of Psychotherapy Integration?"). Stop words alone never mark a node.
 */
const STOP_WORDS = new Set([
  "a", "an", "the", "of", "in", "on", "at", "to", "for", "and", "or", "by", "with", "from", "as", "into",
  "is", "was", "are", "were", "be", "been", "do", "does", "did", "s", "it", "its", "that", "this",
  "what", "who", "whom", "whose", "which", "where", "when", "why", "how",
]);

export function significantWords(text: string): string[] {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== "" && !STOP_WORDS.has(word));
}

export function findQuestionEntities(question: string, nodes: { id: string; label: string }[]): Set<string> {
  const asked = new Set(significantWords(question));
  const marked = new Set<string>();
  for (const node of nodes) {
    const words = significantWords(node.label);
    if (words.length > 0 && words.every((word) => asked.has(word))) marked.add(node.id);
  }
  return marked;
}
