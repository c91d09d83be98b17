// `npm run build`'s second step (SV-8): lib/server/main.ts bundled by esbuild into the build's folder
// (`${NEXT_DIST_DIR:-.next}/context-lab-server.mjs`), so starting the app needs only that file, the
// build and the installed packages. Packages stay outside the bundle: Next, React, Prisma's runtime and
// the drivers are the ones Next's own route bundles load, resolved when the server starts.
import path from "node:path";
import { build, type Plugin } from "esbuild";
import { SERVER_BUNDLE } from "@/lib/server/bundle";

const ROOT = path.join(import.meta.dirname, "..");

/** `server-only` throws outside React's server condition; the server bundle is server code by definition. */
const serverOnlyIsEmpty: Plugin = {
  name: "server-only-is-empty",
  setup(builder) {
    builder.onResolve({ filter: /^server-only$/ }, () => ({ path: "server-only", namespace: "empty" }));
    builder.onLoad({ filter: /.*/, namespace: "empty" }, () => ({ contents: "", loader: "js" }));
  },
};

/** Bundles the server entry into `<root>/<distDir>/context-lab-server.mjs`; returns the file. */
export async function bundleServer(distDir = process.env.NEXT_DIST_DIR || ".next"): Promise<string> {
  const outfile = path.join(ROOT, distDir, SERVER_BUNDLE);
  await build({
    entryPoints: [path.join(ROOT, "lib", "server", "main.ts")],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    // `@/` through tsconfig.json's paths; every package import is left to Node at run time.
    tsconfig: path.join(ROOT, "tsconfig.json"),
    packages: "external",
    plugins: [serverOnlyIsEmpty],
    legalComments: "none",
    logLevel: "warning",
    // The generated Prisma client is CommonJS-flavoured in places: give the bundle a require.
    banner: { js: 'import { createRequire } from "node:module"; const require = createRequire(import.meta.url);' },
  });
  return outfile;
}

if (import.meta.filename === process.argv[1]) console.log(`bundle-server: ${path.relative(ROOT, await bundleServer())}`);
