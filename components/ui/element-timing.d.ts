import "react";

declare module "react" {
  interface HTMLAttributes<T> {
    /** Names the element for the browser's Element Timing API: its first paint is reported to a `PerformanceObserver` ("element" entries). */
    elementtiming?: string;
  }
}
