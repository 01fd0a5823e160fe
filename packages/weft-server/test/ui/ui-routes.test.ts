// The viewer's routes on a real server: GET / and its assets (keyless guard kept, public with API keys), and GET /weft/projects.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findUiDir, uiRoutes } from '../../src/server/ui-routes.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { batch, start, startItem } from 'weft-test-kit/server-http.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const basic = (key: string): string => `Basic ${Buffer.from(`api:${key}`).toString('base64')}`;

describe('GET / without API keys', () => {
  const server = useTestServer();

  it('answers the built page and its assets, offline (no absolute URLs to other hosts)', async () => {
    const res = await fetch(`${server().url}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toContain('<div id="app">');
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    const script = /src="\.?(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toMatch(/^\/assets\/[\w.-]+\.js$/);
    const js = await fetch(`${server().url}${script}`);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toMatch(/javascript/);
    expect(await js.text()).not.toMatch(/https?:\/\/(?!127\.0\.0\.1|localhost|www\.w3\.org)[a-z0-9.-]+\.[a-z]{2,}\/[\w/.-]*\.(js|css|woff2?)\b/);
  });

  it('keeps the keyless guard: a page of another origin gets 403, the own origin is served', async () => {
    expect((await fetch(`${server().url}/`, { headers: { origin: 'http://evil.example' } })).status).toBe(403);
    expect((await fetch(`${server().url}/weft/projects`, { headers: { origin: 'http://evil.example' } })).status).toBe(403);
    expect((await fetch(`${server().url}/weft/projects`, { headers: { origin: server().url } })).status).toBe(200);
  });

  it('lists the projects holding calls, sorted, on GET /weft/projects', async () => {
    await batch(server(), [startItem(start({ project_id: 'zeta/b' })), startItem(start({ project_id: 'acme/a' })), startItem(start({ project_id: 'zeta/b' }))]);
    const res = await fetch(`${server().url}/weft/projects`);
    expect(await res.json()).toEqual({ projects: ['acme/a', 'zeta/b'] });
  });
});

describe('GET / with API keys', () => {
  const server = useTestServer({ apiKeys: ['key', 'demo-key=acme/demo'] });

  it('serves the page without a key, but the data only with one (a limited key sees its projects)', async () => {
    expect((await fetch(`${server().url}/`)).status).toBe(200);
    await batch(server(), [startItem(start({ project_id: 'acme/demo' })), startItem(start({ project_id: 'other/p' }))]);
    expect((await fetch(`${server().url}/weft/projects`)).status).toBe(401);
    const all = await fetch(`${server().url}/weft/projects`, { headers: { authorization: basic('key') } });
    expect(await all.json()).toEqual({ projects: ['acme/demo', 'other/p'] });
    const limited = await fetch(`${server().url}/weft/projects`, { headers: { authorization: basic('demo-key') } });
    expect(await limited.json()).toEqual({ projects: ['acme/demo'] });
  });
});

describe('findUiDir', () => {
  it('finds dist/ui from the built server folder and from src/, and nothing elsewhere', async () => {
    expect(findUiDir(path.join(ROOT, 'dist'))).toBe(path.join(ROOT, 'dist', 'ui'));
    expect(findUiDir(path.join(ROOT, 'src', 'server', 'http'))).toBe(path.join(ROOT, 'dist', 'ui'));
    const dir = mkdtempSync(path.join(tmpdir(), 'weft-noui-'));
    try {
      expect(findUiDir(dir)).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const res = await uiRoutes([], null).request('http://127.0.0.1/');
    expect(await res.text()).toContain('npm run build');
  });
});
