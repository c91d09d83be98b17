/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native and driver packages stay outside the server bundle.
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3", "pg", "@prisma/adapter-pg"],
  poweredByHeader: false,
  // Lets several builds run side by side in one checkout (NEXT_DIST_DIR=.next-mine).
  distDir: process.env.NEXT_DIST_DIR || ".next",
  reactStrictMode: true,
};

export default nextConfig;
