"use client";

import { useState, type FormEvent } from "react";
import styles from "./login.module.css";

/** The token field; the answer is a cookie the page's scripts cannot read. */
export function LoginForm({ returnTo }: { returnTo: string }) {
  const [token, setToken] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPending(true);
    setError(null);
    try {
      const response = await fetch("/api/login", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({ token }),
      });
      if (response.ok) {
        window.location.assign(returnTo);
        return;
      }
      const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
      setError(body?.error?.message ?? `sign-in failed (${response.status})`);
    } catch (reason) {
      setError(`could not reach the server: ${reason instanceof Error ? reason.message : String(reason)}`);
    } finally {
      setPending(false);
    }
  }

  return (
    <form className={styles.form} onSubmit={submit}>
      <label htmlFor="access-token">Access token</label>
      <p className={styles.hint}>The value of CONTEXT_LAB_TOKEN this server was started with.</p>
      <input
        id="access-token"
        type="password"
        autoComplete="current-password"
        value={token}
        onChange={(event) => setToken(event.target.value)}
        required
        autoFocus
      />
      <button type="submit" disabled={pending || token === ""}>
        {pending ? "Signing in…" : "Sign in"}
      </button>
      {error ? (
        <p role="alert" className={styles.error}>
          {error}
        </p>
      ) : null}
    </form>
  );
}
