/**
 * Test helper for calls' media (issue 51): real media files made on the spot (a PNG of random pixels of about a given
 * size or a small gradient of a given width and height, a small PDF, a WAV of a tone), storing a file in and reading it
 * back from a real server (`POST /file/create`, `POST /file/content`), the reference a call holds in place of media, and
 * finding the media references in a stored call.
 * @module
 */
import { deflateSync } from 'node:zlib';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A valid PNG (RGB, 8 bits) of pseudo-random pixels from `seed`, about `approxBytes` long (random pixels do not compress). */
export function pngOf(approxBytes: number, seed = 1): Buffer {
  const side = Math.max(1, Math.round(Math.sqrt(approxBytes / 3)));
  const raw = Buffer.alloc(side * (side * 3 + 1));
  let x = seed >>> 0 || 1;
  for (let i = 0; i < raw.length; i++) {
    if (i % (side * 3 + 1) === 0) continue; // filter byte 0
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    raw[i] = x & 0xff;
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', new Uint8Array(0))]);
}

/** A `width` x `height` RGB PNG of a colour gradient (8-bit, no interlace), decodable by any browser. */
export function tinyPng(width = 8, height = 6): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // bit depth 8, colour type 2 (RGB), deflate, filter 0, no interlace
  const rows: number[] = [];
  for (let y = 0; y < height; y++) {
    rows.push(0); // filter: none
    for (let x = 0; x < width; x++) rows.push((x * 255) / width, (y * 255) / height, 128);
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.from(rows))), chunk('IEND', new Uint8Array(0))]);
}

/** A one-page PDF saying `text`. */
export function pdfOf(text: string): Buffer {
  const stream = `BT /F1 24 Tf 72 720 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** A mono 16-bit PCM WAV of a 440 Hz tone lasting `ms` milliseconds at `rate` samples a second. */
export function shortWav(ms = 500, rate = 8000): Buffer {
  const samples = Math.round((rate * ms) / 1000);
  const out = Buffer.alloc(44 + samples * 2);
  out.write('RIFF', 0, 'latin1');
  out.writeUInt32LE(36 + samples * 2, 4);
  out.write('WAVEfmt ', 8, 'latin1');
  out.writeUInt32LE(16, 16); // fmt chunk size
  out.writeUInt16LE(1, 20); // PCM
  out.writeUInt16LE(1, 22); // mono
  out.writeUInt32LE(rate, 24);
  out.writeUInt32LE(rate * 2, 28);
  out.writeUInt16LE(2, 32);
  out.writeUInt16LE(16, 34);
  out.write('data', 36, 'latin1');
  out.writeUInt32LE(samples * 2, 40);
  for (let i = 0; i < samples; i++) out.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / rate)), 44 + i * 2);
  return out;
}

/** A mono 16-bit PCM WAV of a 440 Hz tone lasting `seconds` at 16 kHz. */
export function wavOf(seconds: number): Buffer {
  return shortWav(seconds * 1000, 16_000);
}

/** `POST /file/content {project_id, digest}` on a real server: the status and the bytes. */
export async function readStoredFile(baseUrl: string, project: string, digest: string): Promise<{ status: number; bytes: Buffer }> {
  const res = await fetch(`${baseUrl}/file/content`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ project_id: project, digest }) });
  return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** Stores `bytes` in `project` through `POST /file/create` (multipart) and answers its digest. */
export async function storeFile(baseUrl: string, project: string, bytes: Uint8Array, headers: Record<string, string> = {}): Promise<string> {
  const form = new FormData();
  form.append('project_id', project);
  form.append('file', new Blob([new Uint8Array(bytes)]));
  const res = await fetch(`${baseUrl}/file/create`, { method: 'POST', body: form, headers });
  if (res.status !== 200) throw new Error(`file/create answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { digest: string }).digest;
}

/** The reference a call holds in place of media (`{_type: "weft.media", mime_type, size_bytes, digest, where}`). */
export function mediaRef(mime: string, bytes: Uint8Array, digest: string, where: string): Record<string, unknown> {
  return { _type: 'weft.media', mime_type: mime, size_bytes: bytes.byteLength, digest, where };
}

/** A media reference as stored in a call (`_type: "weft.media"`). */
export interface StoredMediaRef {
  _type: 'weft.media';
  mime_type: string;
  size_bytes: number;
  digest?: string;
  dropped?: string;
  where: string;
}

/** Every media reference in a stored value, in document order. */
export function mediaRefsIn(value: unknown): StoredMediaRef[] {
  if (value === null || typeof value !== 'object') return [];
  if ((value as { _type?: unknown })._type === 'weft.media') return [value as StoredMediaRef];
  return Object.values(value).flatMap(mediaRefsIn);
}
