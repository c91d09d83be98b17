// Stands in for the `server-only` package under vitest, where no React Server Components run.
export {};
