import "server-only";
import type { Database } from "./client";
import { NotFoundError } from "./errors";
import { fromJsonText, toJsonText, type JsonObject } from "./json";
import { isRecordNotFound, runQuery } from "./run";

/** A model catalogue entry a user added or edited. */
export interface CustomModelRecord {
  id: string;
  /** The entry as saved (validated by the caller). */
  entry: JsonObject;
  updatedAt: string;
}

/** Every user entry of the model catalogue, by id. */
export async function getCustomModels(db: Database): Promise<CustomModelRecord[]> {
  return runQuery(db, async () => {
    const rows = await db.customModel.findMany({ orderBy: { id: "asc" } });
    return rows.map((row) => ({ id: row.id, entry: fromJsonText(row.entry) as JsonObject, updatedAt: row.updatedAt.toISOString() }));
  });
}

/** Saves a user entry under its id, replacing one saved before. */
export async function putCustomModel(db: Database, id: string, entry: object): Promise<CustomModelRecord> {
  const text = toJsonText(entry, "entry");
  return runQuery(db, async () => {
    const row = await db.customModel.upsert({ where: { id }, create: { id, entry: text }, update: { entry: text } });
    return { id: row.id, entry: fromJsonText(row.entry) as JsonObject, updatedAt: row.updatedAt.toISOString() };
  });
}

/** Removes a user entry; the built-in entry with its id, if any, applies again. */
export async function deleteCustomModelById(db: Database, id: string): Promise<void> {
  await runQuery(db, async () => {
    try {
      await db.customModel.delete({ where: { id } });
    } catch (error) {
      if (isRecordNotFound(error)) throw new NotFoundError("model", id);
      throw error;
    }
  });
}
