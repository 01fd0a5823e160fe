/**
 * What the hooks cannot reach, said once with the explicit wrapper to use: a library already loaded before the hooks
 * (in `require`'s cache), and libraries bundled into the app together with weft itself.
 * @module
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { diag } from '../internal/diag.js';
import type { Instrumentation } from './instrumentations.js';

/** True when weft runs from its package's `dist/` (else it was bundled into the app, and so were the libraries beside it). */
function fromPackage(selfUrl: string): boolean {
  try {
    const file = selfUrl.startsWith('file:') ? fileURLToPath(selfUrl) : selfUrl;
    return /[\\/]weft-trace[\\/]dist[\\/]|[\\/]weft-trace[\\/]src[\\/]/.test(file);
  } catch {
    return false;
  }
}

/** Says once which of `entries` cannot be hooked: loaded already (so never patched), or bundled with weft. */
export function sayUnhookable(entries: readonly Instrumentation[], selfUrl: string): void {
  if (!fromPackage(selfUrl)) {
    const wrappers = entries.map((e) => e.wrapper).join(', ');
    diag.once('instrument-bundled', 'warn', `weft-trace runs from a bundle: libraries bundled into it cannot be hooked. Keep them external (not bundled), or wrap their clients: ${wrappers}`);
    return;
  }
  let cached: string[] = [];
  try {
    cached = Object.keys(createRequire(selfUrl).cache ?? {});
  } catch {
    return;
  }
  for (const entry of entries) {
    const dir = `/node_modules/${entry.name}/`;
    if (cached.some((file) => file.replaceAll('\\', '/').includes(dir))) {
      diag.once(`instrument-early:${entry.name}`, 'warn', `${entry.name} was loaded before weft's hooks, so its already loaded copy is not traced: load weft-trace/register first (node -r / --import), or use ${entry.wrapper}`);
    }
  }
}
