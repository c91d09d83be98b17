// Run by `npm run db migrate` after the schema migrations (PX-D6.6 in lib/proxy/README.md):
// proxied requests stored whole become deltas against the call before them on their branch.
// Under `--conditions=react-server`, so lib/db's `server-only` guard resolves to its empty module.
import { compactStoredRequests, createDatabase } from "@/lib/db";

const db = createDatabase();
try {
  const { rewritten, savedCharacters } = await compactStoredRequests(db);
  if (rewritten > 0) console.log(`compact-requests: ${rewritten} stored requests now hold only what they add (${savedCharacters} characters fewer)`);
} finally {
  await db.$disconnect();
}
