/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native and driver packages stay outside the server bundle.
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3", "pg", "@prisma/adapter-pg"],
  poweredByHeader: false,
  // Lets several builds run side by side in one checkout (NEXT_DIST_DIR=.next-mine).
  distDir: process.env.NEXT_DIST_DIR || ".next",
  reactStrictMode: true,
  experimental: {
    // The request guard (proxy.ts) makes Next buffer each body before the route reads it, and Next
    // silently cuts a body past this size: keep it at the guard's MAX_REQUEST_BYTES (lib/security/origin.ts),
    // which refuses larger declared bodies, and the guard refuses bodies without a Content-Length.
    proxyClientMaxBodySize: 32 * 1024 * 1024,
  },
};

export default nextConfig;
