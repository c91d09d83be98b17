/** Styles a mirror copies from the text area so its text wraps at the same places. */
const COPIED = [
  "fontFamily",
  "fontSize",
  "fontWeight",
  "fontStyle",
  "letterSpacing",
  "lineHeight",
  "paddingTop",
  "paddingLeft",
  "paddingRight",
  "tabSize",
  "textIndent",
  "textTransform",
  "wordSpacing",
  "wordBreak",
] as const;

/**
 * Where the text at `offset` starts in the text area, from the top of its content, as laid out now: long
 * lines wrap, so the line number times the line height is not where a line is (UI-I1). A hidden copy of
 * the text before `offset`, as wide as the text area and wrapped the same way, measures it.
 */
export function offsetTop(area: HTMLTextAreaElement, offset: number): number {
  const style = getComputedStyle(area);
  const mirror = document.createElement("div");
  for (const property of COPIED) mirror.style[property] = style[property];
  Object.assign(mirror.style, {
    position: "absolute",
    visibility: "hidden",
    top: "0",
    left: "0",
    boxSizing: "border-box",
    width: `${area.clientWidth}px`,
    whiteSpace: "pre-wrap",
    overflowWrap: "break-word",
  });
  const marker = document.createElement("span");
  marker.textContent = "\u200b";
  mirror.append(area.value.slice(0, offset), marker);
  document.body.append(mirror);
  const top = marker.offsetTop;
  mirror.remove();
  return top;
}
