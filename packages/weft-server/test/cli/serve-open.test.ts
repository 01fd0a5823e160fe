// `weft serve --open` hands the server's page to the desktop's browser opener (xdg-open, which runs
// $BROWSER when no desktop is detected) once it listens; a browser that cannot start is one line.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';
import { killGroup, spawnCli } from 'weft-test-kit/child-processes.js';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it('opens the page once listening', async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'weft-open-'));
  const opened = path.join(dir, 'opened.txt');
  const browser = path.join(dir, 'browser.sh');
  writeFileSync(browser, `#!/bin/sh\necho "$1" > '${opened}'\n`, { mode: 0o755 });
  const { DISPLAY: _d, WAYLAND_DISPLAY: _w, XDG_CURRENT_DESKTOP: _x, ...env } = process.env;
  const child = spawnCli(['serve', '--port', '0', '--db', ':memory:', '--open'], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...env, BROWSER: browser } });
  try {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    // the shell creates the file before echo writes its line: wait for the whole line
    const written = () => existsSync(opened) && readFileSync(opened, 'utf8').endsWith('\n');
    await vi.waitUntil(written, { timeout: 20_000, interval: 50 });
    const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(readFileSync(opened, 'utf8').trim()).toBe(`${url}/`);
  } finally {
    killGroup(child);
  }
});
