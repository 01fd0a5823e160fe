// init() options and env vars: defaults, fallbacks, and clear errors on misconfiguration.
import { expect, it } from 'vitest';
import os from 'node:os';
import { resolveSettings } from '../src/settings.js';
import { ConfigError } from '../src/errors.js';
import { defaultQueueBytes } from '../src/internal/memory-budget.js';

it('fills defaults and env fallbacks', () => {
  const s = resolveSettings({}, { WEFT_PROJECT: 'acme/demo', WEFT_API_KEY: 'k' });
  expect(s).toMatchObject({ project: 'acme/demo', baseUrl: 'http://127.0.0.1:6345', apiKey: 'k', enabled: true, maxBatchItems: 500, flushIntervalMs: 1000 });
  expect(resolveSettings({ project: 'a/b' }, { WEFT_DISABLED: 'true' }).enabled).toBe(false);
  expect(resolveSettings({ project: 'a/b' }, { WEFT_FLUSH_INTERVAL_MS: '250' }).flushIntervalMs).toBe(250);
});

it('says which option is wrong, what it expected and what it got', () => {
  expect(() => resolveSettings({}, {})).toThrowError(ConfigError);
  expect(() => resolveSettings({}, {})).toThrowError(/project: missing: pass init\(\{ project/);
  expect(() => resolveSettings({ project: 'a/b', baseUrl: 'ftp://x' }, {})).toThrowError(/baseUrl: expected an http\(s\) URL, got "ftp:\/\/x"/);
  expect(() => resolveSettings({ project: 'a/b', maxBatchItems: 0 }, {})).toThrowError(/maxBatchItems/);
  expect(() => resolveSettings({ project: 'a/b' }, { WEFT_FLUSH_INTERVAL_MS: 'soon' })).toThrowError(/flushIntervalMs: expected a number, got NaN/);
});

it('checks the project is <entity>/<project>, with one message showing the shape and the value, naming WEFT_PROJECT when it came from there (issue 24 item 2)', () => {
  for (const bad of ['quickstart', '/quickstart', 'acme/quick/start', 'acme/', ' /x']) {
    expect(() => resolveSettings({ project: bad }, {})).toThrowError(`project: expected <entity>/<project> such as acme/demo, got ${JSON.stringify(bad.trim())}`);
  }
  expect(() => resolveSettings({}, { WEFT_PROJECT: 'quickstart' })).toThrowError('project: expected <entity>/<project> such as acme/demo, got "quickstart" (from WEFT_PROJECT)');
  expect(resolveSettings({ project: ' acme/quickstart ' }, {}).project).toBe('acme/quickstart');
});

it('export pipeline options: defaults, env fallbacks and clear errors', () => {
  expect(resolveSettings({ project: 'a/b' }, {})).toMatchObject({
    maxBatchBytes: 4 * 1024 * 1024,
    maxQueueItems: 1_000_000,
    maxQueueBytes: defaultQueueBytes(),
    maxRetries: 20,
    retryInitialDelayMs: 500,
    retryMaxDelayMs: 8000,
    retryBudgetMs: 30_000,
    spoolDir: undefined,
    spoolMaxBytes: 64 * 1024 * 1024,
    handleSignals: false,
    flushMode: 'batch',
    waitUntil: undefined,
  });
  const env = {
    WEFT_SPOOL_DIR: '/tmp/spool',
    WEFT_SPOOL_MAX_BYTES: '1048576',
    WEFT_MAX_BATCH_BYTES: '65536',
    WEFT_RETRY_BUDGET_MS: '5000',
    WEFT_HANDLE_SIGNALS: 'true',
    WEFT_FLUSH_MODE: 'immediate',
  };
  expect(resolveSettings({ project: 'a/b' }, env)).toMatchObject({
    spoolDir: '/tmp/spool',
    spoolMaxBytes: 1_048_576,
    maxBatchBytes: 65_536,
    retryBudgetMs: 5_000,
    handleSignals: true,
    flushMode: 'immediate',
  });
  for (const off of ['off', 'OFF', 'false', '0', 'no']) expect(resolveSettings({ project: 'a/b' }, { WEFT_SPOOL_DIR: off }).spoolDir).toBe(false);
  expect(resolveSettings({ project: 'a/b', spoolDir: false }, { WEFT_SPOOL_DIR: '/tmp/spool' }).spoolDir).toBe(false);
  expect(() => resolveSettings({ project: 'a/b', spoolDir: true as unknown as string }, {})).toThrowError(/spoolDir: expected a directory or false, got true \(boolean\)/);
  expect(() => resolveSettings({ project: 'a/b' }, { WEFT_FLUSH_MODE: 'later' })).toThrowError(/flushMode: expected "batch" or "immediate", got "later"/);
  expect(() => resolveSettings({ project: 'a/b', maxBatchBytes: 10 }, {})).toThrowError(/maxBatchBytes/);
  expect(() => resolveSettings({ project: 'a/b', waitUntil: 'x' as never }, {})).toThrowError(/waitUntil: expected a function/);
});

it('resolves the instrumentation options: sampleRate, redactKeys, mask, maxStreamChunks (options, env, defaults)', () => {
  expect(resolveSettings({ project: 'a/b' }, {})).toMatchObject({
    sampleRate: 1,
    redactKeys: ['api_key', 'apiKey', 'authorization', 'password', 'secret', 'token', 'cookie'],
    maxStreamChunks: 1000,
  });
  const env = { WEFT_SAMPLE_RATE: '0.1', WEFT_REDACT_KEYS: 'ssn, card_number,', WEFT_MAX_STREAM_CHUNKS: '50' };
  expect(resolveSettings({ project: 'a/b' }, env)).toMatchObject({ sampleRate: 0.1, redactKeys: ['ssn', 'card_number'], maxStreamChunks: 50 });
  expect(resolveSettings({ project: 'a/b', sampleRate: 0, redactKeys: [] }, env)).toMatchObject({ sampleRate: 0, redactKeys: [] });
  expect(() => resolveSettings({ project: 'a/b', sampleRate: -0.5 }, {})).toThrowError(/sampleRate/);
  expect(() => resolveSettings({ project: 'a/b', redactKeys: 'token' as never }, {})).toThrowError(/redactKeys: expected an array of strings, got "token" \(string\)/);
  expect(() => resolveSettings({ project: 'a/b', mask: 'x' as never }, {})).toThrowError(/mask: expected a function, got "x" \(string\)/);
  expect(() => resolveSettings({ project: 'a/b', maxStreamChunks: 1.5 }, {})).toThrowError(/maxStreamChunks/);
});

it("maxQueueBytes defaults to 1/8 of the process's memory, from 64 MiB to 256 MiB (issue 47)", () => {
  const mib = 1024 * 1024;
  const bytes = defaultQueueBytes();
  expect(bytes).toBeGreaterThanOrEqual(64 * mib);
  expect(bytes).toBeLessThanOrEqual(256 * mib);
  const limit = Math.min(os.totalmem(), process.constrainedMemory?.() || Infinity);
  expect(bytes).toBe(Math.min(256 * mib, Math.max(64 * mib, Math.floor(limit / 8))));
  expect(resolveSettings({ project: 'a/b', maxQueueBytes: 2048 }, {}).maxQueueBytes).toBe(2048);
});
