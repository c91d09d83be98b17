import type { FakeOpenAI, FakeScript } from "@/tests/support/fake-openai";

export type Target = "direct" | "proxy";

/**
 * Runs one client call twice with the same scripted answers: straight to the
 * fake upstream, then through the proxy, the fake rewound in between so ids
 * and timestamps repeat. What the client made of each answer must be equal.
 */
export async function directAndProxied<T>(fake: FakeOpenAI, scripts: FakeScript[], run: (target: Target) => Promise<T>): Promise<{ direct: T; proxied: T }> {
  fake.rewind();
  fake.enqueue(...scripts);
  const direct = await run("direct");
  fake.rewind();
  fake.enqueue(...scripts);
  const proxied = await run("proxy");
  return { direct, proxied };
}
