"use client";

import { createContext, useContext, useEffect, useState, type ReactNode } from "react";
import { useStore } from "zustand";
import { takePipeline } from "@/lib/playground/pipeline-client";
import type { PlaygroundPipeline } from "./runtime";
import { createPlaygroundStore, type CreatePlaygroundStoreOptions, type PlaygroundStore } from "./store";
import type { PlaygroundState } from "./types";

const PlaygroundStoreContext = createContext<PlaygroundStore | null>(null);

export interface PlaygroundStoreProviderProps extends CreatePlaygroundStoreOptions {
  children: ReactNode;
  /** Makes the pipeline; default a `PipelineClient` on a Web Worker (the one `prestartPipeline` started, if any). Called in the browser only. */
  createPipeline?: () => PlaygroundPipeline & { dispose?(): void };
}

/** One store per mounted workspace (so per request on the server); the pipeline worker starts in the browser only. */
export function PlaygroundStoreProvider({ children, createPipeline, ...options }: PlaygroundStoreProviderProps) {
  const [store] = useState(() => createPlaygroundStore(options));
  useEffect(() => {
    const pipeline = createPipeline ? createPipeline() : takePipeline();
    const detach = store.getState().attachPipeline(pipeline);
    return () => {
      detach();
      pipeline.dispose?.();
    };
  }, [store, createPipeline]);
  return <PlaygroundStoreContext.Provider value={store}>{children}</PlaygroundStoreContext.Provider>;
}

/** The store itself, for event handlers that read state without subscribing. */
export function usePlaygroundStoreApi(): PlaygroundStore {
  const store = useContext(PlaygroundStoreContext);
  if (!store) throw new Error("usePlaygroundStore must be used inside <PlaygroundStoreProvider>");
  return store;
}

/** Subscribes to a slice of the playground store; throws outside its provider. */
export function usePlaygroundStore<T>(selector: (state: PlaygroundState) => T): T {
  return useStore(usePlaygroundStoreApi(), selector);
}
