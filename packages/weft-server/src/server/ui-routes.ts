/**
 * The trace viewer: `GET /` and `/assets/*` answer the web app built into `dist/ui` by `npm run build`
 * (`packages/weft-server/vite.config.ts`), and `GET /weft/projects` (a weft extension) lists the projects the page can pick from.
 * @module
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono, type MiddlewareHandler } from 'hono';
import type { ApiKey } from './http/api-keys.js';
import { GRANTED_PROJECTS } from './http/auth.js';
import { keylessGuard } from './http/keyless-guard.js';
import type { CallStore } from './calls/call-store.js';
import { WEFT_PROJECTS_PATH } from 'weft-trace/wire';

/** This module's folder: `__dirname` in the CommonJS build, `import.meta.url` in ESM. */
function moduleDir(): string {
  return typeof __dirname === 'string' ? __dirname : path.dirname(fileURLToPath(import.meta.url));
}

/**
 * The folder holding the built page (`index.html` and `assets/`), looked for next to this file and in the
 * folders above it, as `dist/ui/` (running from `src/` with tsx) or `ui/` (the packed `dist/`); a folder counts once built
 * (`index.html` beside `assets/`), so the sources in the repository's `ui/` never do.
 *
 * @returns the absolute folder, or undefined when the page was not built.
 */
export function findUiDir(from: string = moduleDir()): string | undefined {
  let dir = from;
  for (let up = 0; up < 8; up += 1) {
    for (const candidate of [path.join(dir, 'dist', 'ui'), path.join(dir, 'ui')]) {
      if (existsSync(path.join(candidate, 'index.html')) && existsSync(path.join(candidate, 'assets'))) return candidate;
    }
    dir = path.dirname(dir);
  }
  return undefined;
}

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>weft</title>
<p>The trace viewer is not built. Run <code>npm run build</code> in the weft repository, then reload.</p>`;

/**
 * The page's static files, mounted before the auth middleware: without API keys they keep the keyless guard
 * (loopback only); with keys they are public, since they hold no data (the page asks for the key itself).
 *
 * @param keys - the server's API keys; empty for keyless mode.
 * @param uiDir - the built page's folder; null answers a page saying to run `npm run build`. @defaultValue {@link findUiDir}()
 */
export function uiRoutes(keys: readonly ApiKey[], uiDir: string | null = findUiDir() ?? null): Hono {
  const app = new Hono();
  const guard: MiddlewareHandler = keys.length === 0 ? keylessGuard() : async (_c, next) => next();
  app.use('/', guard);
  app.use('/assets/*', guard);
  if (uiDir === null) {
    app.get('/', (c) => c.html(NOT_BUILT));
    return app;
  }
  app.get('/', serveStatic({ root: uiDir, path: 'index.html' }));
  app.get('/assets/*', serveStatic({ root: uiDir }), async (c, next) => {
    c.header('Cache-Control', 'public, max-age=31536000, immutable');
    await next();
  });
  return app;
}

/**
 * `GET /weft/projects` (a weft extension, read-only): `{projects: string[]}`, the project ids holding calls,
 * sorted; a key limited to some projects sees only those (its grants, which the auth middleware leaves in the
 * context). Mounted after the auth middleware.
 */
export function projectRoutes(calls: CallStore): Hono {
  const app = new Hono();
  app.get(WEFT_PROJECTS_PATH, async (c) => {
    const granted = c.get(GRANTED_PROJECTS as never) as readonly string[] | null | undefined;
    const projects = (await calls.projectIds()).filter((p) => granted == null || granted.includes(p));
    return c.json({ projects });
  });
  return app;
}
