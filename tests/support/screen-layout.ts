import { afterAll, beforeAll } from "vitest";

/**
 * happy-dom lays nothing out: for the suite that calls this, every element reports a screen's
 * height and each row a line's, as the virtualiser measures them; the real getters come back after.
 */
export function useScreenLayout(
  sizes: { clientHeight: number; clientWidth: number; offsetHeight: number } = { clientHeight: 800, clientWidth: 900, offsetHeight: 40 },
): void {
  const originals = new Map<string, PropertyDescriptor | undefined>();
  beforeAll(() => {
    for (const [key, value] of Object.entries(sizes)) {
      originals.set(key, Object.getOwnPropertyDescriptor(HTMLElement.prototype, key));
      Object.defineProperty(HTMLElement.prototype, key, { configurable: true, get: () => value });
    }
  });
  afterAll(() => {
    for (const [key, descriptor] of originals) if (descriptor) Object.defineProperty(HTMLElement.prototype, key, descriptor);
  });
}
