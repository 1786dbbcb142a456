/**
 * Node ids go into one URL path segment and may hold any characters. Percent-encoding covers
 * everything except the ids "." and "..": URL parsers resolve those (even as "%2E") as dot
 * segments before the server sees them. Such ids, and ids already starting with "~", get one
 * "~" prefixed, which the route strips again, so the mapping stays reversible.
 */
export function encodeNodeSegment(id: string): string {
  const escaped = id === "." || id === ".." || id.startsWith("~") ? `~${id}` : id;
  return encodeURIComponent(escaped);
}

export function decodeNodeSegment(segment: string): string {
  return segment.startsWith("~") ? segment.slice(1) : segment;
}
