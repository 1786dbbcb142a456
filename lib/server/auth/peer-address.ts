/**
 * The address at the other end of the TCP connection, which route handlers cannot see: Next's
 * server keeps a client's own `X-Forwarded-For` as is (it only fills the header in when it is
 * missing), so that header alone says whatever the client wants. `installPeerAddressHeader`
 * (called from instrumentation.ts at server start) stamps every incoming request with the
 * socket's address in `x-refinery-peer`, overwriting anything a client sent under that name;
 * request-info.ts trusts that header only once it has been installed in this process.
 */
import http from "node:http";
import { BlockList, isIP } from "node:net";

export const PEER_HEADER = "x-refinery-peer";

const globalForPeer = globalThis as unknown as { refineryPeerHeader?: boolean; refineryTrustedProxies?: { spec: string; list: BlockList } };

export function installPeerAddressHeader(): void {
  if (globalForPeer.refineryPeerHeader) return;
  globalForPeer.refineryPeerHeader = true;
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the server as `this`
  const emit = http.Server.prototype.emit as (this: http.Server, event: string | symbol, ...args: unknown[]) => boolean;
  http.Server.prototype.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]): boolean {
    if (event === "request") {
      const request = args[0] as http.IncomingMessage;
      request.headers[PEER_HEADER] = normalizeAddress(request.socket.remoteAddress ?? "") || "unknown";
    }
    return emit.call(this, event, ...args);
  } as typeof http.Server.prototype.emit;
}

export function isPeerHeaderInstalled(): boolean {
  return globalForPeer.refineryPeerHeader === true;
}

/** `::ffff:10.0.0.1` → `10.0.0.1`; anything that is not an IP address → "". */
export function normalizeAddress(value: string): string {
  const trimmed = value.trim().replace(/^\[|\]$/g, "");
  const address = trimmed.toLowerCase().startsWith("::ffff:") && isIP(trimmed.slice(7)) === 4 ? trimmed.slice(7) : trimmed;
  return isIP(address) ? address : "";
}

/**
 * REFINERY_TRUSTED_PROXIES: comma-separated addresses or CIDR ranges of the reverse proxies in
 * front of Refinery (e.g. `127.0.0.1,10.0.0.0/8,::1`). Only a request arriving from one of them
 * may name the client in X-Forwarded-For. Unset: nobody is trusted.
 */
export function trustedProxies(env: Record<string, string | undefined> = process.env): BlockList {
  const spec = env.REFINERY_TRUSTED_PROXIES?.trim() ?? "";
  const cached = globalForPeer.refineryTrustedProxies;
  if (cached && cached.spec === spec && env === process.env) return cached.list;
  const list = new BlockList();
  for (const entry of spec.split(",").map((s) => s.trim()).filter(Boolean)) {
    const [address = "", bits] = entry.split("/");
    const ip = normalizeAddress(address);
    const type = isIP(ip) === 6 ? "ipv6" : "ipv4";
    if (!ip) throw new Error(`REFINERY_TRUSTED_PROXIES: ${JSON.stringify(entry)} is not an IP address or CIDR range`);
    if (bits === undefined) list.addAddress(ip, type);
    else {
      const prefix = Number(bits);
      if (!Number.isInteger(prefix) || prefix < 0 || prefix > (type === "ipv6" ? 128 : 32)) throw new Error(`REFINERY_TRUSTED_PROXIES: bad prefix length in ${JSON.stringify(entry)}`);
      list.addSubnet(ip, prefix, type);
    }
  }
  if (env === process.env) globalForPeer.refineryTrustedProxies = { spec, list };
  return list;
}

export function isTrusted(address: string, list: BlockList): boolean {
  const ip = normalizeAddress(address);
  if (!ip) return false;
  return list.check(ip, isIP(ip) === 6 ? "ipv6" : "ipv4");
}
