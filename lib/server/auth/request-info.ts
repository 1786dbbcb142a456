/** What the auth layer needs to know about a request: cookies, client address, scheme, host. */
import { isPeerHeaderInstalled, isTrusted, normalizeAddress, PEER_HEADER, trustedProxies } from "./peer-address";

export function readCookie(request: Request, name: string): string | null {
  const header = request.headers.get("cookie");
  if (!header) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq === -1) continue;
    if (part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return null;
      }
    }
  }
  return null;
}

/**
 * The client's address, as far as it can be known: the connection's peer (peer-address.ts),
 * unless that peer is a configured proxy (REFINERY_TRUSTED_PROXIES), in which case the
 * right-most X-Forwarded-For entry that is not itself a trusted proxy: every entry left of it
 * could have been written by the client. "unknown" when the handler runs outside the Next
 * server (tests, scripts calling handlers directly) and nobody stamped the peer.
 */
export function clientIp(request: Request): string {
  const peer = isPeerHeaderInstalled() ? normalizeAddress(request.headers.get(PEER_HEADER) ?? "") : "";
  if (!peer) return "unknown";
  const proxies = trustedProxies();
  if (!isTrusted(peer, proxies)) return peer;
  const hops = (request.headers.get("x-forwarded-for") ?? "").split(",").map(normalizeAddress);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i];
    // A malformed entry ends the trusted chain: the proxy in front of it did not write it.
    if (!hop) return peer;
    if (!isTrusted(hop, proxies)) return hop;
  }
  return hops[0] || peer;
}

export function isHttps(request: Request): boolean {
  const proto = request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim();
  if (proto) return proto === "https";
  return new URL(request.url).protocol === "https:";
}

/** host[:port] the browser addressed. */
export function requestHost(request: Request): string {
  return (request.headers.get("x-forwarded-host")?.split(",")[0]?.trim() || request.headers.get("host") || new URL(request.url).host).toLowerCase();
}

export function userAgentOf(request: Request): string | null {
  return request.headers.get("user-agent")?.slice(0, 300) ?? null;
}
