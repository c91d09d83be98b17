"use client";

import Link from "next/link";
import { useEffect } from "react";
import { applyTheme } from "@/components/ui/theme";
import { useDocumentTheme } from "@/components/ui/use-document-theme";
import { ThemeToggle } from "@/components/ui/theme-toggle";
import styles from "./home-header.module.css";

/** The home page's bar: name, what it is, the theme toggle (also on `t`). */
export function HomeHeader() {
  const theme = useDocumentTheme();
  const toggle = () => applyTheme(theme === "dark" ? "light" : "dark");
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (event.key !== "t" || event.ctrlKey || event.metaKey || event.altKey || target?.closest("input, textarea, select, [contenteditable]")) return;
      applyTheme(document.documentElement.dataset.theme === "dark" ? "light" : "dark");
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, []);
  return (
    <header className={styles.header}>
      <h1 className={styles.brand}>Context Lab</h1>
      <span className={styles.tagline}>the context your agent sends its model, inspected and tuned</span>
      <Link href="/agents" className={styles.link}>
        Local agents
      </Link>
      <Link href="/models" className={styles.link}>
        Models
      </Link>
      <ThemeToggle theme={theme} onToggle={toggle} />
    </header>
  );
}
