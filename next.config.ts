import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Native SQLite bindings must be required at run time, not bundled.
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3"],
  typedRoutes: false,
  poweredByHeader: false,
  reactStrictMode: true,
};

export default nextConfig;
