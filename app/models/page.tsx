import type { Metadata } from "next";
import { connection } from "next/server";
import { getDatabase } from "@/lib/db";
import { CATALOGUE_TAKEN_AT } from "@/lib/models";
import { loadCatalogue } from "@/lib/models/server";
import { ModelsPage } from "@/components/models/models-page";

export const metadata: Metadata = { title: "Models · Context Lab" };

/** `/models`: the model catalogue, to read and to correct. */
export default async function Models() {
  await connection();
  return <ModelsPage models={await loadCatalogue(getDatabase())} takenAt={CATALOGUE_TAKEN_AT} />;
}
