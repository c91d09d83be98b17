import "server-only";
import { findSessionIssues, parentsFirst, SESSION_KIND, SESSION_VERSION, type SessionFile } from "@/lib/session/schema";
import { describeDatabase, type Database } from "./client";
import { ConflictError, InvalidArgumentError, NotFoundError } from "./errors";
import { toExchangeRecords } from "./exchanges";
import { addLibraryMessages, createLibraryEntry } from "./library";
import { runTransaction } from "./run";
import { findUnstorableText } from "./text";

type Dated = { createdAt: Date };

function withDates<Row extends Dated & { updatedAt?: Date }>(row: Row): Omit<Row, "createdAt" | "updatedAt"> & { createdAt: string; updatedAt?: string } {
  return { ...row, createdAt: row.createdAt.toISOString(), ...(row.updatedAt ? { updatedAt: row.updatedAt.toISOString() } : {}) };
}

function toDates<Row extends { createdAt: string; updatedAt?: string }>(
  row: Row,
): Omit<Row, "createdAt" | "updatedAt"> & { createdAt: Date; updatedAt?: Date } {
  return { ...row, createdAt: new Date(row.createdAt), ...(row.updatedAt ? { updatedAt: new Date(row.updatedAt) } : {}) };
}

const byCreation = [{ createdAt: "asc" as const }, { id: "asc" as const }];

/**
 * One conversation and every row stored for it (SE1): branches, messages,
 * summaries, checkpoints, offloaded content, artifacts, proxy exchanges and
 * the conversation's own policies, exactly as stored, read in one transaction.
 */
export async function exportSession(db: Database, conversationId: string): Promise<SessionFile> {
  return runTransaction(db, async (tx) => {
    const conversation = await tx.conversation.findUnique({ where: { id: conversationId } });
    if (!conversation) throw new NotFoundError("conversation", conversationId);
    const branches = await tx.branch.findMany({ where: { conversationId }, orderBy: byCreation });
    const inBranches = { branchId: { in: branches.map((branch) => branch.id) } };
    const [messages, summaries, checkpoints, offloaded, artifacts, exchanges, policies] = [
      await tx.message.findMany({ where: inBranches, orderBy: [{ branchId: "asc" }, { position: "asc" }] }),
      await tx.summary.findMany({ where: inBranches, orderBy: byCreation }),
      await tx.checkpoint.findMany({ where: inBranches, orderBy: [{ branchId: "asc" }, { version: "asc" }] }),
      await tx.offloadedContent.findMany({ where: inBranches, orderBy: byCreation }),
      await tx.artifact.findMany({ where: inBranches, orderBy: byCreation }),
      await tx.exchange.findMany({ where: { conversationId }, orderBy: byCreation }),
      await tx.policy.findMany({ where: { conversationId }, orderBy: byCreation }),
    ];
    // A request stored as a delta is written whole (D6.4): the file's rows stand alone.
    const records = await toExchangeRecords(tx, exchanges);
    return {
      kind: SESSION_KIND,
      version: SESSION_VERSION,
      exportedAt: new Date().toISOString(),
      conversation: { ...withDates(conversation), updatedAt: conversation.updatedAt.toISOString() },
      branches: parentsFirst(branches.map(withDates), (branch) => branch.parentId),
      messages: messages.map(withDates),
      summaries: parentsFirst(summaries.map(withDates), (summary) => summary.extendsId),
      checkpoints: checkpoints.map(withDates),
      offloaded: offloaded.map(withDates),
      artifacts: artifacts.map(withDates),
      exchanges: exchanges.map(({ requestBaseId: _base, ...row }, index) => ({ ...withDates(row), request: JSON.stringify(records[index].request) })),
      policies: policies.map((policy) => ({ ...withDates(policy), conversationId, updatedAt: policy.updatedAt.toISOString() })),
    };
  });
}

/** What an import wrote. */
export interface ImportSessionResult {
  conversationId: string;
  rows: Record<"branches" | "messages" | "summaries" | "checkpoints" | "offloaded" | "artifacts" | "exchanges" | "policies", number>;
}

/**
 * Writes a session file's rows as they are (SE1), all or nothing. A file whose
 * references point outside it is refused before anything is written (SE2); a
 * conversation already stored (its id or its record key) is a conflict (SE3).
 */
export async function importSession(db: Database, file: SessionFile): Promise<ImportSessionResult> {
  const issues = findSessionIssues(file);
  if (issues.length > 0)
    throw new InvalidArgumentError(issues[0].path, `${issues[0].path}: ${issues[0].message}${issues.length > 1 ? ` (and ${issues.length - 1} more)` : ""}`);
  // IN-3: text the database cannot store is refused with its path, before anything is written.
  const unstorable = findUnstorableText(file, describeDatabase(db).provider);
  if (unstorable) throw new InvalidArgumentError(unstorable.path, `${unstorable.path} ${unstorable.message}`);
  const conversationId = file.conversation.id;
  return runTransaction(db, async (tx) => {
    const existing = await tx.conversation.findFirst({
      where: { OR: [{ id: conversationId }, ...(file.conversation.recordKey ? [{ recordKey: file.conversation.recordKey }] : [])] },
      select: { id: true },
    });
    if (existing) throw new ConflictError("conversation", `conversation '${existing.id}' is already stored: delete it first to import this session again`);
    // A subagent's parent may not be in this database: the link is then dropped, the call id and origin kept.
    const parentId = file.conversation.parentId;
    const parent = parentId === null ? null : await tx.conversation.findUnique({ where: { id: parentId }, select: { id: true } });
    await tx.conversation.create({
      data: { ...toDates(file.conversation), parentId: parent?.id ?? null, updatedAt: new Date(file.conversation.updatedAt) },
    });
    await createLibraryEntry(tx, conversationId, { ...file.conversation, createdAt: new Date(file.conversation.createdAt) });
    // One at a time: a branch's parent must exist before it.
    for (const branch of parentsFirst(file.branches, (row) => row.parentId)) await tx.branch.create({ data: toDates(branch) });
    if (file.messages.length > 0) await tx.message.createMany({ data: file.messages.map(toDates) });
    await addLibraryMessages(tx, conversationId, file.messages, new Date(file.conversation.updatedAt));
    for (const summary of parentsFirst(file.summaries, (row) => row.extendsId)) await tx.summary.create({ data: toDates(summary) });
    if (file.checkpoints.length > 0) await tx.checkpoint.createMany({ data: file.checkpoints.map(toDates) });
    if (file.offloaded.length > 0) await tx.offloadedContent.createMany({ data: file.offloaded.map(toDates) });
    if (file.artifacts.length > 0) await tx.artifact.createMany({ data: file.artifacts.map(toDates) });
    if (file.exchanges.length > 0) await tx.exchange.createMany({ data: file.exchanges.map(toDates) });
    if (file.policies.length > 0)
      await tx.policy.createMany({ data: file.policies.map((policy) => ({ ...toDates(policy), updatedAt: new Date(policy.updatedAt) })) });
    return {
      conversationId,
      rows: {
        branches: file.branches.length,
        messages: file.messages.length,
        summaries: file.summaries.length,
        checkpoints: file.checkpoints.length,
        offloaded: file.offloaded.length,
        artifacts: file.artifacts.length,
        exchanges: file.exchanges.length,
        policies: file.policies.length,
      },
    };
  });
}
