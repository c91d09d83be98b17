/**
 * Runs tasks one at a time per key, in the order they were queued, and
 * different keys concurrently. The recorder queues each conversation's
 * writes here so one agent's turns land in order even when it fires its next
 * request before the previous answer's recording has finished.
 */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<unknown>>();
  private readonly pending = new Set<Promise<unknown>>();

  /** Queues `task` behind everything already queued under `key`; the result settles with the task. */
  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(task, task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    this.pending.add(tail);
    void tail.then(() => {
      this.pending.delete(tail);
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Resolves once every task queued so far, and any queued while waiting, has settled. */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  get size(): number {
    return this.pending.size;
  }
}
