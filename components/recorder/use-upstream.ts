"use client";

import { useCallback, useEffect, useState } from "react";
import { ApiError } from "@/lib/client";
import type { ChatApi, UpstreamSettingsChanges, UpstreamSettingsView } from "./chat-api";

export interface UpstreamState {
  view: UpstreamSettingsView | null;
  loading: boolean;
  saving: boolean;
  error: ApiError | null;
  reload(): Promise<void>;
  save(changes: UpstreamSettingsChanges): Promise<boolean>;
}

function asApiError(error: unknown): ApiError {
  return ApiError.isInstance(error) ? error : new ApiError(0, "network_error", error instanceof Error ? error.message : String(error));
}

/** Where the recorder's model calls go: `GET/PUT /api/settings/upstream` (the key itself never comes back). */
export function useUpstream(api: ChatApi): UpstreamState {
  const [view, setView] = useState<UpstreamSettingsView | null>(null);
  const [loading, setLoading] = useState(true);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);

  const reload = useCallback(async () => {
    setLoading(true);
    try {
      setView(await api.getUpstream());
      setError(null);
    } catch (failure) {
      setError(asApiError(failure));
    } finally {
      setLoading(false);
    }
  }, [api]);

  useEffect(() => {
    void reload();
  }, [reload]);

  const save = useCallback(
    async (changes: UpstreamSettingsChanges) => {
      setSaving(true);
      try {
        setView(await api.saveUpstream(changes));
        setError(null);
        return true;
      } catch (failure) {
        setError(asApiError(failure));
        return false;
      } finally {
        setSaving(false);
      }
    },
    [api],
  );

  return { view, loading, saving, error, reload, save };
}
