export { HandleViewer, type HandleViewerProps } from "./handle-viewer";
export { HandleList, type HandleListProps } from "./handle-list";
export { HandleDetail, type HandleDetailProps } from "./handle-detail";
export {
  collectHandles,
  sortHandles,
  reloadExchange,
  reloadCallId,
  SOURCE_LABELS,
  type HandleEntry,
  type HandleSource,
  type HandleSortKey,
  type SortDirection,
} from "./handle-entries";
