import { database } from "@/lib/api/database";
import { json, otherMethods, route } from "@/lib/api/http";
import { CATALOGUE_TAKEN_AT } from "@/lib/models";
import { loadCatalogue } from "@/lib/models/server";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** The model catalogue: built-in entries with the users' over them. */
export const GET = route(async () => json({ models: await loadCatalogue(database()), takenAt: CATALOGUE_TAKEN_AT }));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
