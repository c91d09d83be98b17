// Run by `npm run db migrate` after the schema migrations (lib/library/README.md, LB6):
// conversations stored before the library get their search words, which SQL cannot split.
// Under `--conditions=react-server`, so lib/db's `server-only` guard resolves to its empty module.
import { createDatabase, indexUnindexedConversations } from "@/lib/db";

const db = createDatabase();
try {
  const indexed = await indexUnindexedConversations(db);
  if (indexed > 0) console.log(`index-library: ${indexed} conversations stored before the library can now be searched`);
} finally {
  await db.$disconnect();
}
