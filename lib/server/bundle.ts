import path from "node:path";

/** The server entry as `npm run build` bundles it (SV-8), inside the build's own folder so each dist dir has its own. */
export const SERVER_BUNDLE = "context-lab-server.mjs";

/** The bundled server of the build in `distDir` (relative to `root`, default `.next`). */
export function serverBundleOf(root: string, distDir = ".next"): string {
  return path.join(root, distDir, SERVER_BUNDLE);
}
