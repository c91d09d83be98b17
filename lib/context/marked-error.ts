/**
 * The base of every named error in Context Lab. Each subclass declares its
 * own `Symbol.for` marker, and every class in an error's chain marks it, so
 * `X.isInstance(error)` holds across bundles where `instanceof` does not (a
 * Web Worker and the page, or two route handlers, load separate copies of a
 * module) and a subclass is an instance of its bases.
 */
export class MarkedError extends Error {
  /** The class's marker: `Symbol.for("context-lab.<area>.<name>")`. */
  static readonly marker: symbol = Symbol.for("context-lab.error");

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "MarkedError";
    for (let type: unknown = new.target; typeof type === "function" && type !== Error; type = Object.getPrototypeOf(type)) {
      if (Object.hasOwn(type, "marker")) Object.defineProperty(this, (type as typeof MarkedError).marker, { value: true });
    }
  }

  /** Whether `error` is this class or a subclass, whichever bundle made it. Works unbound too: `.filter(NotFoundError.isInstance)`. */
  static isInstance<T extends MarkedError>(this: { readonly marker: symbol; readonly prototype: T }, error: unknown): error is T {
    return isMarked(error, this.marker);
  }
}

function isMarked(error: unknown, marker: symbol): boolean {
  return typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[marker] === true;
}

// Read as `X.isInstance`, the guard is bound to X's marker, so it can be passed around unbound.
Object.defineProperty(MarkedError, "isInstance", {
  get(this: typeof MarkedError) {
    const { marker } = this;
    return (error: unknown) => isMarked(error, marker);
  },
});
