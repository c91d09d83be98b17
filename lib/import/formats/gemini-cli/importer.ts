/** Gemini CLI's files: a recorded session, or a `Content[]` history from `/chat share` or `/chat save` (see session.ts, history.ts). */
import type { DocumentImporter } from "../../registry";
import { cliHistoryOf, convertCliHistory } from "./history";
import { convertCliSession, isCliSession } from "./session";

export const geminiCliImporter: DocumentImporter = {
  format: "gemini-cli",
  detect: (value) => isCliSession(value) || cliHistoryOf(value) !== undefined,
  convert: (value, place, context) => [isCliSession(value) ? convertCliSession(value, place, context) : convertCliHistory(value, place, context)],
};
