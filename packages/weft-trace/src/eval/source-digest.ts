/**
 * The version of a scorer: a digest of its source text (weft publishes no op objects, so an op ref's `<digest>` is
 * the code's hash), shared by evaluate()'s scorers and monitors.
 * @module
 */
import { nodeBuiltin } from '../internal/runtime.js';

/**
 * The digest of a function's source: SHA-256 where the runtime has `node:crypto` (base64url with `-`→`X`, `_`→`Y`,
 * no `=`), else (Vercel Edge) FNV-1a, 32 bits, in hex.
 */
export function sourceDigest(fn: (...args: never[]) => unknown): string {
  const source = Function.prototype.toString.call(fn);
  const crypto = nodeBuiltin('node:crypto');
  if (crypto) return crypto.createHash('sha256').update(source).digest('base64url').replace(/-/g, 'X').replace(/_/g, 'Y');
  let h = 0x811c9dc5;
  for (let i = 0; i < source.length; i++) h = Math.imul(h ^ source.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}
