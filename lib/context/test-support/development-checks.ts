// Vitest setup for every project: the engine's development checks (E-T7) are on in
// the tests, so any code that edits a message in place after the engine counted it
// fails where it does so.
import { setDevelopmentChecks } from "../checks";

setDevelopmentChecks(true);
