/** A tool result of `size` characters with `code` in its middle, where no summary's first lines reach. */
export function bigResult(label: string, code: string, size: number): string {
  const filler = `${label} flight row; `.repeat(Math.ceil(size / (label.length + 14)));
  const half = Math.floor((size - code.length - 2) / 2);
  return `${filler.slice(0, half)} ${code} ${filler.slice(0, size - half - code.length - 2)}`;
}
