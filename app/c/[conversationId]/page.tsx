import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { DatabaseUnavailableError, NotFoundError, getConversationView, getDatabase } from "@/lib/db";
import { loadCatalogue } from "@/lib/models/server";
import { openingOf } from "@/lib/playground/first-result";
import { Workspace } from "@/components/workspace/workspace";
import { DatabaseStatus } from "@/components/ui/database-status";
import { readWorkspaceLocation } from "@/components/workspace/workspace-url";

// Messages the page carries: a first screen (`openingOf`), so the server answers at once and the page
// stays small however long the branch is. The pipeline worker reads the whole history
// (`GET /api/branches/[id]/messages`) as the workspace starts. The page also carries the branch's first
// pipeline result, built here (and kept) so it paints before any script runs.

/**
 * One read per request: the page and its metadata both need it. A branch of
 * another conversation, or one deleted since the link was shared, opens the
 * root instead.
 */
const readView = cache((conversationId: string, branchId: string | undefined) => getConversationView(getDatabase(), conversationId, branchId));

interface WorkspacePageProps {
  params: Promise<{ conversationId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

async function loadWorkspace(conversationId: string, branchId: string | undefined) {
  const db = getDatabase();
  try {
    const [{ conversation, tree, scope }, catalogue] = await Promise.all([readView(conversationId, branchId), loadCatalogue(db)]);
    const { branch } = scope;
    const { records, result } = await openingOf(db, { conversation, scope, catalogue });
    const customModels = catalogue.filter((entry) => entry.origin === "custom");
    return { conversation, branch, records, tree, customModels, partial: records.length < branch.length, firstResult: result };
  } catch (error) {
    if (NotFoundError.isInstance(error)) notFound();
    throw error;
  }
}

export async function generateMetadata({ params, searchParams }: WorkspacePageProps): Promise<Metadata> {
  const [{ conversationId }, search] = await Promise.all([params, searchParams]);
  try {
    const { conversation } = await readView(conversationId, readWorkspaceLocation(search).branch);
    return { title: `${conversation.title} · Context Lab` };
  } catch {
    return { title: "Context Lab" };
  }
}

/** `/c/[conversationId]?branch=&tab=&step=&view=`: the workspace of one conversation on one branch. */
export default async function WorkspacePage({ params, searchParams }: WorkspacePageProps) {
  const [{ conversationId }, search] = await Promise.all([params, searchParams]);
  const location = readWorkspaceLocation(search);
  let data: Awaited<ReturnType<typeof loadWorkspace>>;
  try {
    data = await loadWorkspace(conversationId, location.branch);
  } catch (error) {
    // Shown and retried in place: production would otherwise hide the reason behind a generic error page.
    if (!DatabaseUnavailableError.isInstance(error)) throw error;
    return <DatabaseStatus initial={{ database: error.database, message: error.message }} />;
  }
  return (
    <>
      <DatabaseStatus />
      <Workspace key={data.conversation.id} {...data} location={{ ...location, branch: data.branch.id }} />
    </>
  );
}
