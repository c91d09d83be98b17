import { connection } from "next/server";
import { safeReturnPath } from "@/lib/security/guard";
import { LoginForm } from "./login-form";
import styles from "./login.module.css";

/** `/login`: asks for the access token once; the browser then keeps an HttpOnly session cookie (never the token). */
export default async function LoginPage({ searchParams }: { searchParams: Promise<{ next?: string | string[] }> }) {
  await connection();
  const { next } = await searchParams;
  const returnTo = safeReturnPath(typeof next === "string" ? next : null);
  const required = Boolean(process.env.CONTEXT_LAB_TOKEN?.trim());
  return (
    <main className={styles.page}>
      <section className={styles.card} aria-labelledby="login-title">
        <h1 id="login-title">Context Lab</h1>
        {required ? (
          <LoginForm returnTo={returnTo} />
        ) : (
          <p>
            This Context Lab has no access token, so there is nothing to sign in to. <a href="/">Open it</a>.
          </p>
        )}
      </section>
    </main>
  );
}
