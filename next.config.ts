import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Native SQLite bindings must be required at run time, not bundled; `pg` too (its optional
  // pg-native import cannot be resolved by the bundler).
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3", "pg", "@prisma/adapter-pg"],
  typedRoutes: false,
  poweredByHeader: false,
  reactStrictMode: true,
};

export default nextConfig;
