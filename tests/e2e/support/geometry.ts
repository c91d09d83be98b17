import type { Page } from "@playwright/test";

/** What the workspace's geometry check found: empty lists when everything is in view. */
export interface GeometryReport {
  /** How far the document scrolls vertically and sideways (0 when it fits the window). */
  documentOverflow: { vertical: number; horizontal: number };
  /** Panels that scroll sideways, or reach past the window. */
  panels: string[];
  /** Elements that stick out of the panel that holds them (outside any inner scroller of their own). */
  overflowing: string[];
  /** Tabs not fully shown in the tab bar. */
  hiddenTabs: string[];
}

/** The workspace's panels: each holds its content, scrolling inside itself. */
const PANELS: [string, string][] = [
  ["header", "header"],
  ["conversation", 'section[aria-label="Conversation"]'],
  ["inspector", 'aside[aria-label="Inspector"]'],
  ["inspector panel", '[role="tabpanel"]'],
];

/**
 * Measures the workspace as laid out now (UI-G1…UI-G3 in components/workspace/README.md): the document
 * must not scroll, each panel stays inside the window and never scrolls sideways, and every element
 * lies inside its panel unless an inner scroller of its own holds it.
 */
export function measureWorkspace(page: Page): Promise<GeometryReport> {
  return page.evaluate((PANELS) => {
    const describe = (element: Element) => {
      const label = element.getAttribute("aria-label") ?? element.getAttribute("role") ?? "";
      const text = (element.textContent ?? "").trim().slice(0, 40);
      return `${element.tagName.toLowerCase()}${label ? `[${label}]` : ""} "${text}"`;
    };
    const root = document.documentElement;
    const documentOverflow = {
      vertical: Math.max(0, root.scrollHeight - window.innerHeight),
      horizontal: Math.max(0, root.scrollWidth - window.innerWidth),
    };
    const panelReport: string[] = [];
    const overflowing: string[] = [];
    for (const [name, selector] of PANELS) {
      const panel = document.querySelector<HTMLElement>(selector);
      if (!panel) {
        panelReport.push(`${name} is missing`);
        continue;
      }
      const box = panel.getBoundingClientRect();
      if (box.bottom > window.innerHeight + 1 || box.right > window.innerWidth + 1)
        panelReport.push(`${name} reaches ${Math.round(box.right)}×${Math.round(box.bottom)} past the window`);
      if (panel.scrollWidth > panel.clientWidth + 1) panelReport.push(`${name} scrolls sideways by ${panel.scrollWidth - panel.clientWidth}px`);
      if (panel.scrollLeft !== 0) panelReport.push(`${name} is left scrolled sideways by ${panel.scrollLeft}px`);
      for (const element of panel.querySelectorAll<HTMLElement>("*")) {
        const rect = element.getBoundingClientRect();
        if (rect.width === 0 || rect.height === 0) continue;
        // The nearest ancestor that clips sideways: an element inside an inner scroller is that scroller's business.
        let clipper = element.parentElement;
        while (clipper && clipper !== panel && getComputedStyle(clipper).overflowX === "visible") clipper = clipper.parentElement;
        if (clipper !== panel) continue;
        if (rect.right > box.right + 1 || rect.left < box.left - 1)
          overflowing.push(
            `${describe(element)} in ${name}: ${Math.round(rect.left)}–${Math.round(rect.right)} outside ${Math.round(box.left)}–${Math.round(box.right)}`,
          );
      }
    }
    const tablist = document.querySelector<HTMLElement>('[role="tablist"][aria-label="Inspector panels"]');
    const hiddenTabs: string[] = [];
    if (tablist) {
      const shown = tablist.getBoundingClientRect();
      for (const tab of tablist.querySelectorAll<HTMLElement>('[role="tab"]')) {
        const rect = tab.getBoundingClientRect();
        const inView =
          rect.width > 0 && rect.left >= shown.left - 1 && rect.right <= shown.right + 1 && rect.top >= shown.top - 1 && rect.bottom <= shown.bottom + 1;
        if (!inView) hiddenTabs.push((tab.textContent ?? "").trim());
      }
    } else hiddenTabs.push("(no tab bar)");
    return { documentOverflow, panels: panelReport, overflowing: overflowing.slice(0, 20), hiddenTabs };
  }, PANELS);
}
