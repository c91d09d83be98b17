import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { agentsHomeEnv } from "./tests/e2e/support/agents-home";
import { appPort as port, upstreamBaseUrl, UPSTREAM_KEY } from "./tests/e2e/support/upstream-ports";

const databaseFile = path.join(import.meta.dirname, "tmp", `e2e-${port}.db`);

export default defineConfig({
  testDir: "tests/e2e",
  outputDir: "test-results",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [["list"], ["html", { open: "never", outputFolder: "playwright-report" }]],
  // The fake OpenAI upstream on a fixed port (tests/e2e/support/upstream-ports.ts): the web server starts before this runs.
  globalSetup: "./tests/e2e/support/global-setup.ts",
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    screenshot: "on",
    trace: "retain-on-failure",
    launchOptions: {
      // Debian's Chromium: Playwright's own browser download cannot reach its host here.
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-quic",
        "--no-first-run",
      ],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"] } }],
  webServer: {
    command: `rm -f ${databaseFile} && bash scripts/prisma.sh migrate >/dev/null && bash scripts/serve.sh start`,
    url: `http://127.0.0.1:${port}`,
    env: {
      DATABASE_URL: `file:${databaseFile}`,
      NEXT_TELEMETRY_DISABLED: "1",
      HOST: "127.0.0.1",
      PORT: String(port),
      CONTEXT_LAB_UPSTREAM_BASE_URL: upstreamBaseUrl,
      CONTEXT_LAB_UPSTREAM_API_KEY: UPSTREAM_KEY,
      CONTEXT_LAB_UPSTREAM_SETTINGS_FILE: path.join(import.meta.dirname, "tmp", `e2e-upstream-${port}.json`),
      // The Local agents page reads a home the local-agents spec fills, never the machine's own sessions.
      ...agentsHomeEnv,
    },
    reuseExistingServer: false,
    timeout: 120_000,
  },
});
