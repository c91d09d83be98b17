"use client";

import { useCallback, useEffect, useRef, useState, type DependencyList } from "react";
import { ApiError } from "./errors";

/** What a data hook shows: the last data, the last error, whether a load is running. */
export interface ApiState<T> {
  data: T | undefined;
  error: ApiError | undefined;
  loading: boolean;
  /** Loads again with the same inputs (after a write, say). */
  refresh: () => void;
}

function asApiError(error: unknown): ApiError {
  if (ApiError.isInstance(error)) return error;
  return new ApiError(0, "client_error", error instanceof Error ? error.message : String(error), { cause: error });
}

/**
 * Runs `load` when `deps` change (and on `refresh()`), aborting the previous
 * load and the running one on unmount. Data from the previous inputs stays
 * until the new load answers, so views do not flash empty; `null` for `load`
 * means "nothing to load" (no branch selected) and clears the state.
 * @example const { data, error, loading } = useApi((signal) => client.listCheckpoints(branchId, { signal }), [client, branchId]);
 */
export function useApi<T>(load: ((signal: AbortSignal) => Promise<T>) | null, deps: DependencyList): ApiState<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<ApiError | undefined>(undefined);
  const [loading, setLoading] = useState(load !== null);
  const [version, setVersion] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  useEffect(() => {
    const current = loadRef.current;
    if (current === null) {
      setData(undefined);
      setError(undefined);
      setLoading(false);
      return;
    }
    const controller = new AbortController();
    setLoading(true);
    current(controller.signal).then(
      (value) => {
        if (controller.signal.aborted) return;
        setData(value);
        setError(undefined);
        setLoading(false);
      },
      (reason: unknown) => {
        if (controller.signal.aborted || ApiError.isAbort(reason)) return;
        setError(asApiError(reason));
        setLoading(false);
      },
    );
    return () => controller.abort();
    // The caller's deps stand for `load`'s inputs, as with useMemo.
  }, [...deps, version]);

  const refresh = useCallback(() => setVersion((value) => value + 1), []);
  return { data, error, loading, refresh };
}

/** A write the user triggers: `run` resolves to the result, or to undefined after recording the error. */
export interface ApiAction<Args extends unknown[], T> {
  run: (...args: Args) => Promise<T | undefined>;
  pending: boolean;
  error: ApiError | undefined;
  reset: () => void;
}

/**
 * Wraps a write (fork, compact) with pending and error state; a result that
 * arrives after unmount is dropped.
 * @example const fork = useApiAction((position: number) => client.forkBranch(branchId, { position }));
 */
export function useApiAction<Args extends unknown[], T>(action: (...args: Args) => Promise<T>): ApiAction<Args, T> {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<ApiError | undefined>(undefined);
  const mounted = useRef(true);
  const actionRef = useRef(action);
  actionRef.current = action;
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const run = useCallback(async (...args: Args) => {
    setPending(true);
    setError(undefined);
    try {
      const result = await actionRef.current(...args);
      if (mounted.current) setPending(false);
      return result;
    } catch (reason) {
      if (mounted.current) {
        setError(asApiError(reason));
        setPending(false);
      }
      return undefined;
    }
  }, []);
  const reset = useCallback(() => setError(undefined), []);
  return { run, pending, error, reset };
}

/** `value`, updated only after it stayed the same for `delay` ms (the prompt preview's typed turn). */
export function useDebouncedValue<T>(value: T, delay: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}
