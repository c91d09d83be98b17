import { cleanup, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createApiClient } from "@/lib/client";
import { BUILT_IN_MODELS, type ModelEntry } from "@/lib/models";
import { ModelsPage } from "./models-page";

afterEach(cleanup);

const models = (extra: ModelEntry[] = []) => [...BUILT_IN_MODELS, ...extra];

describe("ModelsPage", () => {
  it("[MC-1] lists every model with its window, how it is counted and its prices", () => {
    render(<ModelsPage models={models()} takenAt="2026-06-15" />);
    const rows = within(screen.getByRole("table", { name: "Model catalogue" })).getAllByRole("row");
    expect(rows).toHaveLength(BUILT_IN_MODELS.length + 1);
    const sonnet = rows.find((row) => row.textContent?.includes("claude-sonnet-4-5"))!;
    expect(sonnet.textContent).toContain("200,000");
    expect(sonnet.textContent).toContain("o200k_base (approximate)");
    expect(sonnet.textContent).toContain("$3");
  });

  it("[MC-3] adds a model through the form, and shows the server's field errors", async () => {
    const added: ModelEntry = { ...BUILT_IN_MODELS[0], id: "acme-7b", label: "Acme", origin: "custom" };
    const requests: string[] = [];
    let refuse = true;
    const fetch = vi.fn(async (url: RequestInfo | URL, init: RequestInit = {}) => {
      requests.push(`${init.method ?? "GET"} ${String(url)}`);
      if (init.method === "PUT" && refuse) {
        refuse = false;
        return Response.json(
          { error: { code: "invalid_request", message: "invalid request body", issues: [{ path: "contextWindow", message: "must be at least 1" }] } },
          { status: 400 },
        );
      }
      if (init.method === "PUT") return Response.json({ model: added });
      return Response.json({ models: models([added]), takenAt: "2026-06-15" });
    });
    render(<ModelsPage models={models()} takenAt="2026-06-15" client={createApiClient({ fetch: fetch as typeof globalThis.fetch })} />);
    await userEvent.click(screen.getByRole("button", { name: "Add a model" }));
    const form = screen.getByRole("form", { name: "Add a model" });
    await userEvent.type(within(form).getByLabelText("Model id (as agents send it)"), "acme-7b");
    await userEvent.click(within(form).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(within(form).getByRole("alert").textContent).toContain("contextWindow: must be at least 1"));
    await userEvent.click(within(form).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(screen.queryByRole("form", { name: "Add a model" })).toBeNull());
    expect(requests).toEqual(["PUT /api/models/acme-7b", "PUT /api/models/acme-7b", "GET /api/models"]);
    expect(screen.getByRole("button", { name: "Delete acme-7b" })).toBeTruthy();
  });

  it("[CC-4] editing a built-in model sends its 1-hour write price, and keeps its cache rules, long-context tier and sources", async () => {
    const bodies: unknown[] = [];
    const fetch = vi.fn(async (_url: RequestInfo | URL, init: RequestInit = {}) => {
      if (init.method === "PUT") {
        bodies.push(await new Response(init.body).json());
        return Response.json({ model: { ...BUILT_IN_MODELS[0], origin: "custom" } });
      }
      return Response.json({ models: models(), takenAt: "2026-06-15" });
    });
    render(<ModelsPage models={models()} takenAt="2026-06-15" client={createApiClient({ fetch: fetch as typeof globalThis.fetch })} />);
    await userEvent.click(screen.getByRole("button", { name: "Edit claude-sonnet-4-5" }));
    const form = screen.getByRole("form", { name: "Edit claude-sonnet-4-5" });
    const hour = within(form).getByLabelText("Cache write, 1 hour");
    expect((hour as HTMLInputElement).value).toBe("6");
    await userEvent.clear(hour);
    await userEvent.type(hour, "6.5");
    await userEvent.click(within(form).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(bodies).toHaveLength(1));
    const sonnet = BUILT_IN_MODELS.find((entry) => entry.id === "claude-sonnet-4-5")!;
    expect(bodies[0]).toMatchObject({
      prices: { input: 3, cacheWrite: 3.75, cacheWrite1h: 6.5, longContext: sonnet.prices?.longContext },
      caching: sonnet.caching,
      sources: sonnet.sources,
    });
  });
});
