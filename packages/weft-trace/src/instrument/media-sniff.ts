/**
 * Tells media text from other strings, cheaply (base64 `data:` URLs and long base64 text), and names the media type of bytes by their magic numbers.
 * @module
 */
import { bytesOfBase64 } from '../internal/runtime.js';

/**
 * Shortest string taken as bare base64 media (a data URL has no minimum): shorter base64 text stays as it is. Bare
 * base64 is media only when its first bytes name a type (or when it is over `maxStringLength`), so ids and hashes stay text.
 */
export const MIN_BASE64_MEDIA_CHARS = 128;

/** Characters of bare base64 text checked for the alphabet before it is taken as media (the rest is decoded leniently). */
const CHECKED_CHARS = 256;

/** `application/octet-stream`: bytes whose type nothing names. */
export const OCTET_STREAM = 'application/octet-stream';

/** A base64 `data:` URL split: its media type (lower case, no parameters) and where its base64 text starts. */
export interface DataUrl {
  mimeType: string;
  start: number;
}

/**
 * The media type and base64 offset of a `data:<type>[;params];base64,<text>` URL (RFC 2397), or `undefined` for any
 * other string (a data URL that is not base64 included: it is text and stays as it is).
 */
export function parseDataUrl(s: string): DataUrl | undefined {
  if (s.charCodeAt(0) !== 100 || !s.startsWith('data:')) return undefined;
  const comma = s.indexOf(',', 5);
  if (comma < 0 || comma > 256) return undefined;
  const head = s.slice(5, comma);
  if (!head.toLowerCase().endsWith(';base64')) return undefined;
  const type = head.split(';', 1)[0]!.trim().toLowerCase();
  return { mimeType: type === '' ? OCTET_STREAM : type, start: comma + 1 };
}

/**
 * Whether `s` reads as bare base64 bytes: at least {@link MIN_BASE64_MEDIA_CHARS} long, a multiple of 4, its first
 * 256 characters in the base64 alphabet (standard or URL-safe) and its end too. Prose fails on its first space.
 */
export function looksBase64(s: string): boolean {
  const n = s.length;
  if (n < MIN_BASE64_MEDIA_CHARS || n % 4 !== 0) return false;
  for (let i = 0, m = Math.min(n, CHECKED_CHARS); i < m; i++) if (!isBase64Char(s.charCodeAt(i))) return false;
  for (let i = n - 4; i < n - 2; i++) if (!isBase64Char(s.charCodeAt(i))) return false;
  return true;
}

function isBase64Char(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 43 || c === 47 || c === 45 || c === 95;
}

/** Magic numbers of common media: the bytes at `at` that name a type. */
const MAGIC: readonly { type: string; bytes: readonly number[]; at?: number; also?: { at: number; bytes: readonly number[] } }[] = [
  { type: 'image/png', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { type: 'image/jpeg', bytes: [0xff, 0xd8, 0xff] },
  { type: 'image/gif', bytes: [0x47, 0x49, 0x46, 0x38] },
  { type: 'image/webp', bytes: [0x52, 0x49, 0x46, 0x46], also: { at: 8, bytes: [0x57, 0x45, 0x42, 0x50] } },
  { type: 'audio/wav', bytes: [0x52, 0x49, 0x46, 0x46], also: { at: 8, bytes: [0x57, 0x41, 0x56, 0x45] } },
  { type: 'application/pdf', bytes: [0x25, 0x50, 0x44, 0x46, 0x2d] },
  { type: 'audio/mpeg', bytes: [0x49, 0x44, 0x33] },
  { type: 'audio/mpeg', bytes: [0xff, 0xfb] },
  { type: 'audio/mpeg', bytes: [0xff, 0xf3] },
  { type: 'audio/ogg', bytes: [0x4f, 0x67, 0x67, 0x53] },
  { type: 'audio/flac', bytes: [0x66, 0x4c, 0x61, 0x43] },
  { type: 'audio/webm', bytes: [0x1a, 0x45, 0xdf, 0xa3] },
  { type: 'video/mp4', bytes: [0x66, 0x74, 0x79, 0x70], at: 4 },
];

/** The media type the first bytes of `head` name, or `undefined` (then {@link OCTET_STREAM} is what to say). */
export function sniffMimeType(head: Uint8Array): string | undefined {
  const has = (bytes: readonly number[], at: number) => bytes.every((b, i) => head[at + i] === b);
  for (const m of MAGIC) if (has(m.bytes, m.at ?? 0) && (!m.also || has(m.also.bytes, m.also.at))) return m.type;
  return undefined;
}

/** The first bytes of base64 text (`s` from `start`), decoded, for {@link sniffMimeType}. */
export function base64Head(s: string, start = 0): Uint8Array {
  try {
    return bytesOfBase64(s.slice(start, start + 24));
  } catch {
    return new Uint8Array(0);
  }
}

/** Decoded size, in bytes, of the base64 text of `s` from `start` (`=` padding not counted). */
export function base64Size(s: string, start = 0): number {
  let end = s.length;
  while (end > start && s.charCodeAt(end - 1) === 61) end--;
  return Math.floor(((end - start) * 3) / 4);
}
