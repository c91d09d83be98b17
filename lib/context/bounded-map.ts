/**
 * A Map that holds at most `capacity` entries, for caches that must not grow
 * without end.
 *
 * - **BM1** Setting a key makes it the newest entry; when that takes the map
 *   past its capacity, the oldest entry is dropped. Setting a key the map
 *   already holds drops nothing else.
 * - **BM2** With `refreshOnRead`, getting a held key makes it the newest too,
 *   so the least recently used entry goes first. Without it, reads leave the
 *   order alone and the least recently set entry goes first.
 */
export class BoundedMap<K, V> extends Map<K, V> {
  private readonly refreshOnRead: boolean;

  constructor(
    private readonly capacity: number,
    options: { refreshOnRead?: boolean } = {},
  ) {
    super();
    this.refreshOnRead = options.refreshOnRead ?? false;
  }

  override get(key: K): V | undefined {
    const value = super.get(key);
    if (this.refreshOnRead && super.delete(key)) super.set(key, value as V);
    return value;
  }

  override set(key: K, value: V): this {
    super.delete(key);
    super.set(key, value);
    if (this.size > this.capacity) super.delete(this.keys().next().value as K);
    return this;
  }
}
