import { afterEach, describe, expect, it, vi } from "vitest";
import { awaitUpstream, timedRoute } from "./timing";

const request = () => new Request("http://127.0.0.1:3000/api/v1/models");
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("timedRoute", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("[P-T1] counts the waits for the upstream apart from the rest of the route, summed over several", async () => {
    // The clock moves only as the test moves it: the durations are exact, however loaded the machine.
    vi.useFakeTimers({ toFake: ["setTimeout", "performance"] });
    const answering = timedRoute(async () => {
      await awaitUpstream(pause(40));
      await pause(20);
      await awaitUpstream(pause(40));
      return Response.json({ ok: true });
    })(request());
    await vi.advanceTimersByTimeAsync(100);
    const answer = await answering;
    expect(answer.headers.get("server-timing")).toBe("upstream;dur=80.00, proxy;dur=20.00");
    expect(await answer.json()).toEqual({ ok: true });
  });

  it("[P-T1] times an answer whose headers cannot change, and waits outside a timed route count nowhere", async () => {
    const redirected = await timedRoute(() => Response.redirect("http://127.0.0.1:3000/elsewhere", 307))(request());
    expect(redirected.status).toBe(307);
    expect(redirected.headers.get("location")).toBe("http://127.0.0.1:3000/elsewhere");
    expect(redirected.headers.get("server-timing")).toMatch(/^upstream;dur=0\.00, proxy;dur=\d+\.\d\d$/);
    await expect(awaitUpstream(Promise.resolve(7))).resolves.toBe(7);
  });
});
