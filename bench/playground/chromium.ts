/** The e2e tests' launch (playwright.config.ts): Debian's Chromium, no background networking on this closed network. */
export const CHROMIUM = {
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
};

/** Playwright's "Desktop Chrome" viewport, as in the e2e tests. */
export const VIEWPORT = { width: 1280, height: 720 };
