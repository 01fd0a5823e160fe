// The README says what a newcomer meets (issue 24): what weft prints with no server (the hint the code prints), and npm 11's install-script review of better-sqlite3.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { NO_SERVER_HINT } from 'weft-trace/src/export/reachability.js';

const README = readFileSync(path.resolve(import.meta.dirname, '../../README.md'), 'utf8');

it('shows what a user sees with no server: the first warning with the URL, ECONNREFUSED and the hint, and the exit line (item 1)', () => {
  expect(README).toContain('**No server running?**');
  expect(README).toContain(`[weft] warn: cannot reach http://127.0.0.1:6345 (Connection error (ECONNREFUSED): connect ECONNREFUSED 127.0.0.1:6345); ${NO_SERVER_HINT}.`);
  expect(README).toContain('every connection to http://127.0.0.1:6345 was refused at exit');
});

it('says that npm 11 asks to review better-sqlite3\'s install script, and how to approve it (item 11)', () => {
  expect(README).toContain('npm warn install-scripts 1 package has install scripts not yet covered by allowScripts:');
  expect(README).toContain('npm install-scripts approve better-sqlite3');
  expect(README).toContain('"allowScripts": { "better-sqlite3@12.x.y": true }');
  expect(README).toContain('npm rebuild better-sqlite3');
});
