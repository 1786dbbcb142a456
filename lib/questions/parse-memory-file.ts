/**
 * graphify memory files (`graphify-out/memory/query_*.md`) hold questions people asked: the
 * YAML front matter's `question:` line, else the first `# Q: …` heading.
 */
export function parseMemoryFile(text: string): string | null {
  const body = text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  const front = /^---\n([\s\S]*?)\n---(?:\n|$)/.exec(body);
  if (front) {
    const line = /^question:\s*(.*)$/m.exec(front[1] ?? "");
    const value = line?.[1]?.trim();
    if (value) return unquoteYaml(value);
  }
  const heading = /^#\s*Q:\s*(.+)$/m.exec(body);
  const q = heading?.[1]?.trim();
  return q ? q : null;
}

function unquoteYaml(value: string): string {
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
    try {
      return JSON.parse(value) as string;
    } catch {
      return value.slice(1, -1);
    }
  }
  if (value.length >= 2 && value.startsWith("'") && value.endsWith("'")) return value.slice(1, -1).replace(/''/g, "'");
  return value;
}
