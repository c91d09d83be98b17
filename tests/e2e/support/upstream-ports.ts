// Where the e2e suite's fake OpenAI upstream listens: fixed ports, because Playwright starts the web server before globalSetup.

/** The app's port (`E2E_PORT`, default 3100). */
export const appPort = Number(process.env.E2E_PORT ?? 3100);
/** The fake upstream's OpenAI port: `E2E_UPSTREAM_PORT`, default the app's port + 1000 (3100 → 4100). */
export const upstreamPort = Number(process.env.E2E_UPSTREAM_PORT ?? appPort + 1000);
/** Its control port, one above: tests queue scripted answers and read what the upstream was sent. */
export const controlPort = upstreamPort + 1;
/** The key the app is configured with, and the fake requires. */
export const UPSTREAM_KEY = "sk-e2e-upstream-key-0001";
export const upstreamBaseUrl = `http://127.0.0.1:${upstreamPort}/v1`;
