/**
 * Image dimensions and audio length from the first bytes of base64 data:
 * PNG, JPEG, GIF and WebP headers, and WAV's format chunk. Isomorphic byte
 * parsing: no image library, nothing decoded beyond what the header needs.
 */

/** Decodes the first `count` bytes of base64 text (fewer when it is shorter). */
export function base64Bytes(data: string, count: number): Uint8Array {
  const clean = data.length > 0 && /\s/.test(data.slice(0, 128)) ? data.replace(/\s+/g, "") : data;
  const chars = Math.min(clean.length, Math.ceil(count / 3) * 4);
  const slice = clean.slice(0, chars - (chars % 4));
  let binary: string;
  try {
    binary = atob(slice);
  } catch {
    return new Uint8Array(0);
  }
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/** Pixel size of an image. */
export interface ImageSize {
  width: number;
  height: number;
}

const uint16 = (bytes: Uint8Array, at: number, little = false) => (little ? bytes[at] | (bytes[at + 1] << 8) : (bytes[at] << 8) | bytes[at + 1]);
const uint24le = (bytes: Uint8Array, at: number) => bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16);
const uint32 = (bytes: Uint8Array, at: number) => ((bytes[at] << 24) >>> 0) + (bytes[at + 1] << 16) + (bytes[at + 2] << 8) + bytes[at + 3];

/** Reads the size from PNG, GIF, WebP or JPEG bytes; undefined when the header is not there. */
export function imageSizeOf(bytes: Uint8Array): ImageSize | undefined {
  if (bytes.length >= 24 && bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[12] === 0x49 && bytes[13] === 0x48) {
    return { width: uint32(bytes, 16), height: uint32(bytes, 20) };
  }
  if (bytes.length >= 10 && bytes[0] === 0x47 && bytes[1] === 0x49 && bytes[2] === 0x46) {
    return { width: uint16(bytes, 6, true), height: uint16(bytes, 8, true) };
  }
  if (bytes.length >= 30 && text(bytes, 0, 4) === "RIFF" && text(bytes, 8, 4) === "WEBP") return webpSize(bytes);
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8) return jpegSize(bytes);
  return undefined;
}

function text(bytes: Uint8Array, at: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(at, at + length));
}

function webpSize(bytes: Uint8Array): ImageSize | undefined {
  const chunk = text(bytes, 12, 4);
  if (chunk === "VP8X") return { width: uint24le(bytes, 24) + 1, height: uint24le(bytes, 27) + 1 };
  if (chunk === "VP8 ") return { width: uint16(bytes, 26, true) & 0x3fff, height: uint16(bytes, 28, true) & 0x3fff };
  if (chunk === "VP8L") {
    const bits = bytes[21] | (bytes[22] << 8) | (bytes[23] << 16) | (bytes[24] << 24);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  return undefined;
}

/** Walks JPEG segments to the first start-of-frame marker (SOF0–SOF15 but DHT, JPG and DAC). */
function jpegSize(bytes: Uint8Array): ImageSize | undefined {
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1];
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    const length = uint16(bytes, at + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { width: uint16(bytes, at + 7), height: uint16(bytes, at + 5) };
    }
    at += 2 + length;
  }
  return undefined;
}

/** How many bytes to decode before giving up on a JPEG's frame header (EXIF thumbnails come first). */
export const HEADER_BYTES = 256 * 1024;

/** Seconds of WAV audio from its format chunk's byte rate and the data size; undefined for other audio. */
export function wavSeconds(data: string): number | undefined {
  const bytes = base64Bytes(data, 64);
  if (bytes.length < 44 || text(bytes, 0, 4) !== "RIFF" || text(bytes, 8, 4) !== "WAVE") return undefined;
  const byteRate = bytes[28] | (bytes[29] << 8) | (bytes[30] << 16) | (bytes[31] << 24);
  const total = Math.floor((data.replace(/=+$/, "").length * 3) / 4);
  return byteRate > 0 ? Math.max(0, total - 44) / byteRate : undefined;
}
