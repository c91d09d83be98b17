import type { Metadata } from "next";
import { headers } from "next/headers";
import type { ReactNode } from "react";
import { THEME_BOOT_SCRIPT } from "@/components/ui/theme";
import "./globals.css";

export const metadata: Metadata = {
  title: "Context Lab",
  description: "Inspect, replay and tune the context your LLM agent sends to its model.",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // The request guard's per-request nonce: the Content-Security-Policy runs no inline script without it.
  const nonce = (await headers()).get("x-nonce") ?? undefined;
  return (
    // The boot script sets data-theme before the first paint; React must not fight it on hydration.
    <html lang="en" suppressHydrationWarning>
      <head>
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: THEME_BOOT_SCRIPT }} />
      </head>
      <body>{children}</body>
    </html>
  );
}
