/**
 * The security headers (next.config.ts) and the pages' Content-Security-Policy (proxy.ts), as
 * Next applies them; the build + e2e run proves the policy lets the real pages work.
 */
import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import nextConfig from "../next.config";
import { pageContentSecurityPolicy, proxy } from "../proxy";

const directives = (csp: string) => new Map(csp.split(";").map((d) => d.trim().split(/\s+/)).map(([name = "", ...values]) => [name, values]));

describe("security headers", () => {
  it("every response: no framing, no sniffing, a referrer policy; API answers may not run anything", async () => {
    const rules = (await nextConfig.headers?.()) ?? [];
    const all = rules.find((r) => r.source === "/:path*")?.headers ?? [];
    const byKey = new Map(all.map((h) => [h.key.toLowerCase(), h.value]));
    expect(byKey.get("x-frame-options")).toBe("DENY");
    expect(byKey.get("x-content-type-options")).toBe("nosniff");
    expect(byKey.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    const api = rules.find((r) => r.source === "/api/:path*")?.headers.find((h) => h.key === "Content-Security-Policy")?.value ?? "";
    expect(directives(api).get("default-src")).toEqual(["'none'"]);
    expect(directives(api).get("frame-ancestors")).toEqual(["'none'"]);
  });

  it("pages get a fresh nonce per request, on the response and on the request Next renders with", () => {
    const page = () => proxy(new NextRequest("http://refinery.test/graphs/x", { headers: { cookie: "refinery_session=abc" } }));
    const a = page();
    const b = page();
    const csp = a.headers.get("content-security-policy") ?? "";
    const script = directives(csp).get("script-src") ?? [];
    expect(script).toContain("'strict-dynamic'");
    expect(script.some((v) => /^'nonce-[A-Za-z0-9+/=]{20,}'$/.test(v))).toBe(true);
    expect(script).not.toContain("'unsafe-inline'");
    expect(directives(csp).get("frame-ancestors")).toEqual(["'none'"]);
    expect(directives(csp).get("object-src")).toEqual(["'none'"]);
    expect(b.headers.get("content-security-policy")).not.toBe(csp);
    // NextResponse.next({ request: { headers } }) hands overridden request headers on like this.
    expect(a.headers.get("x-middleware-request-content-security-policy")).toBe(csp);
  });

  it("eval only in development (React's dev overlay); sign-in redirect unchanged", () => {
    expect(pageContentSecurityPolicy("n", true)).toContain("'unsafe-eval'");
    expect(pageContentSecurityPolicy("n", false)).not.toContain("'unsafe-eval'");
    const res = proxy(new NextRequest("http://refinery.test/graphs/x"));
    expect(res.status).toBe(307);
    expect(res.headers.get("location")).toBe("http://refinery.test/login?next=%2Fgraphs%2Fx");
  });
});
