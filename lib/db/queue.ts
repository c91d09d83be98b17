import "server-only";

type Tails = Map<string, Promise<void>>;
const globalForQueue = globalThis as typeof globalThis & { __contextLabWriteQueues?: Tails };

/**
 * Runs `work` after every earlier `runInQueue` with the same key has
 * finished, in call order. Writers that read, compute, then write
 * optimistically (a recorded turn on one branch) would otherwise collide
 * and retry; queued, fifty of them go one after another at once. The map
 * lives on `globalThis`: route bundles may each load their own copy of this
 * module, and they must share one queue.
 */
export async function runInQueue<T>(key: string, work: () => Promise<T>): Promise<T> {
  const tails = (globalForQueue.__contextLabWriteQueues ??= new Map());
  const previous = tails.get(key) ?? Promise.resolve();
  let release!: () => void;
  const done = new Promise<void>((resolve) => (release = resolve));
  const tail = previous.then(() => done);
  tails.set(key, tail);
  await previous;
  try {
    return await work();
  } finally {
    release();
    if (tails.get(key) === tail) tails.delete(key);
  }
}
