import type { NextConfig } from "next";

/** On every response (pages, API, static files). Pages get their CSP, with a nonce, from proxy.ts. */
const SECURITY_HEADERS = [
  { key: "X-Frame-Options", value: "DENY" },
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=(), usb=()" },
  { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
];

/** Answers that are data, never a document: nothing in them may run, load or be framed, even if opened directly. */
const DATA_CSP = { key: "Content-Security-Policy", value: "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'; sandbox" };

const nextConfig: NextConfig = {
  // Native SQLite bindings must be required at run time, not bundled; `pg` too (its optional
  // pg-native import cannot be resolved by the bundler).
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3", "pg", "@prisma/adapter-pg"],
  typedRoutes: false,
  poweredByHeader: false,
  reactStrictMode: true,
  async headers() {
    return [
      { source: "/:path*", headers: SECURITY_HEADERS },
      { source: "/api/:path*", headers: [DATA_CSP] },
      { source: "/icon.svg", headers: [DATA_CSP] },
    ];
  },
};

export default nextConfig;
