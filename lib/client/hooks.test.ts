// @vitest-environment happy-dom
import { act, cleanup, renderHook, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "./errors";
import { useApi, useApiAction, useDebouncedValue } from "./hooks";

afterEach(cleanup);

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((done, fail) => {
    resolve = done;
    reject = fail;
  });
  return { promise, resolve, reject };
}

describe("useApi", () => {
  it("is loading, then holds the data", async () => {
    const { result } = renderHook(() => useApi(async () => [1, 2], []));
    expect(result.current.loading).toBe(true);
    await waitFor(() => expect(result.current.data).toEqual([1, 2]));
    expect(result.current.loading).toBe(false);
    expect(result.current.error).toBeUndefined();
  });

  it("holds the ApiError of a failed load", async () => {
    const failure = new ApiError(404, "not_found", "branch 'x' does not exist");
    const { result } = renderHook(() => useApi(() => Promise.reject(failure), []));
    await waitFor(() => expect(result.current.error).toBe(failure));
    expect(result.current.loading).toBe(false);
  });

  it("aborts the running load on unmount", async () => {
    let signal: AbortSignal | undefined;
    const { unmount } = renderHook(() =>
      useApi((given) => {
        signal = given;
        return new Promise<never>(() => {});
      }, []),
    );
    expect(signal?.aborted).toBe(false);
    unmount();
    expect(signal?.aborted).toBe(true);
  });

  it("aborts the previous load when the inputs change and keeps only the latest answer", async () => {
    const first = deferred<string>();
    const second = deferred<string>();
    const signals: AbortSignal[] = [];
    const { result, rerender } = renderHook(
      ({ id }) =>
        useApi(
          (signal) => {
            signals.push(signal);
            return id === "a" ? first.promise : second.promise;
          },
          [id],
        ),
      {
        initialProps: { id: "a" },
      },
    );
    rerender({ id: "b" });
    expect(signals[0].aborted).toBe(true);
    second.resolve("b data");
    await waitFor(() => expect(result.current.data).toBe("b data"));
    first.resolve("a data");
    await Promise.resolve();
    expect(result.current.data).toBe("b data");
  });

  it("loads again on refresh", async () => {
    const load = vi.fn(async () => "value");
    const { result } = renderHook(() => useApi(load, []));
    await waitFor(() => expect(result.current.loading).toBe(false));
    act(() => result.current.refresh());
    await waitFor(() => expect(load).toHaveBeenCalledTimes(2));
  });

  it("is idle with nothing to load", () => {
    const { result } = renderHook(() => useApi<string>(null, []));
    expect(result.current).toMatchObject({ data: undefined, error: undefined, loading: false });
  });
});

describe("useApiAction", () => {
  it("is pending while the write runs and returns its result", async () => {
    const write = deferred<string>();
    const { result } = renderHook(() => useApiAction((position: number) => write.promise.then((id) => `${id}@${position}`)));
    let returned: Promise<string | undefined> | undefined;
    act(() => {
      returned = result.current.run(17);
    });
    expect(result.current.pending).toBe(true);
    write.resolve("b2");
    await expect(returned).resolves.toBe("b2@17");
    await waitFor(() => expect(result.current.pending).toBe(false));
  });

  it("records the error and resolves to undefined", async () => {
    const failure = new ApiError(409, "conflict", "the branch moved");
    const { result } = renderHook(() => useApiAction(() => Promise.reject(failure)));
    let returned: string | undefined = "unset";
    await act(async () => {
      returned = await result.current.run();
    });
    expect(returned).toBeUndefined();
    expect(result.current.error).toBe(failure);
  });
});

describe("useDebouncedValue", () => {
  it("settles on the last value after the delay", () => {
    vi.useFakeTimers();
    try {
      const { result, rerender } = renderHook(({ value }) => useDebouncedValue(value, 300), { initialProps: { value: "a" } });
      rerender({ value: "ab" });
      rerender({ value: "abc" });
      expect(result.current).toBe("a");
      act(() => vi.advanceTimersByTime(300));
      expect(result.current).toBe("abc");
    } finally {
      vi.useRealTimers();
    }
  });
});
