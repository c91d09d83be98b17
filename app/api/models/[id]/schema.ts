import { modelEntryInputSchema } from "@/lib/models";

/** A catalogue entry as a user saves it; the id is the URL's. */
export const saveModelSchema = modelEntryInputSchema;
