// Test helper: the spec's digest computed independently of src/ (sha256, base64 with + -> X, / -> Y, no =).
import { createHash } from 'node:crypto';

/** sha256 of a text (or of bytes: a file's digest) as base64url with `-`→`X`, `_`→`Y` and no `=` (written from base64: `+`→`X`, `/`→`Y`). */
export const sha = (text: string | Uint8Array): string =>
  createHash('sha256').update(text).digest('base64').replace(/\+/g, 'X').replace(/\//g, 'Y').replace(/=+$/, '');
