/**
 * Media for the tests of calls' files (issue 51): a real PNG and a real WAV made from scratch, a file stored through
 * `POST /file/create`, and the media reference a call holds in its place.
 * @module
 */
import { crc32, deflateSync } from 'node:zlib';

/** One PNG chunk: length, type, data, CRC-32 of type and data (PNG spec §5.3). */
function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([head, body, crc]);
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
  return Buffer.concat([signature, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.from(rows))), chunk('IEND', Buffer.alloc(0))]);
}

/** A mono 16-bit PCM WAV of a 440 Hz tone lasting `ms` milliseconds at `rate` samples a second. */
export function shortWav(ms = 500, rate = 8000): Buffer {
  const samples = Math.round((rate * ms) / 1000);
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) data.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / rate)), i * 2);
  const head = Buffer.alloc(44);
  head.write('RIFF', 0, 'latin1');
  head.writeUInt32LE(36 + data.length, 4);
  head.write('WAVEfmt ', 8, 'latin1');
  head.writeUInt32LE(16, 16); // fmt chunk size
  head.writeUInt16LE(1, 20); // PCM
  head.writeUInt16LE(1, 22); // mono
  head.writeUInt32LE(rate, 24);
  head.writeUInt32LE(rate * 2, 28); // bytes a second
  head.writeUInt16LE(2, 32); // block align
  head.writeUInt16LE(16, 34); // bits a sample
  head.write('data', 36, 'latin1');
  head.writeUInt32LE(data.length, 40);
  return Buffer.concat([head, data]);
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
