export { createPlaygroundStore, type CreatePlaygroundStoreOptions, type PlaygroundStore } from "./store";
export type { PlaygroundPipeline, PlaygroundServices } from "./runtime";
export { forkPositionOf, forkPositionOfSelection } from "./branches-slice";
export { matchPositions } from "./conversation-slice";
export { shownLength } from "./ui-slice";
export * from "./types";
