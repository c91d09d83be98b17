import { HttpError } from "@/lib/api/errors";
import { database } from "@/lib/api/database";
import { json, noContent, otherMethods, readJsonBody, route } from "@/lib/api/http";
import { deleteCustomModelById, putCustomModel } from "@/lib/db";
import { customEntry, modelIdSchema } from "@/lib/models";
import { forgetCatalogue } from "@/lib/models/server";
import { saveModelSchema } from "./schema";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { id: string };

// Next hands the id decoded already (`%2F` is `/`): decoding it again would turn `%25` into a broken escape (BD-2).
function modelId(raw: string): string {
  const parsed = modelIdSchema.safeParse(raw);
  if (!parsed.success)
    throw new HttpError(400, "invalid_request", `model id: ${parsed.error.issues[0].message}`, {
      issues: [{ path: "id", message: parsed.error.issues[0].message }],
    });
  return parsed.data;
}

/** Adds a model to the catalogue, or edits one (a built-in entry is replaced by the user's until deleted). */
export const PUT = route<Params>(async (request, params) => {
  const id = modelId(params.id);
  const input = await readJsonBody(request, saveModelSchema);
  const db = database();
  const entry = customEntry(id, input, new Date().toISOString().slice(0, 10));
  await putCustomModel(db, id, entry);
  forgetCatalogue(db);
  return json({ model: entry });
});

/** Removes the user's entry: a built-in model with this id applies again. */
export const DELETE = route<Params>(async (_request, params) => {
  const id = modelId(params.id);
  const db = database();
  await deleteCustomModelById(db, id);
  forgetCatalogue(db);
  return noContent();
});

export const { GET, POST, PATCH, OPTIONS } = otherMethods("PUT", "DELETE");
