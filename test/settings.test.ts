// init() options and env vars: defaults, fallbacks, and clear errors on misconfiguration.
import { expect, it } from 'vitest';
import { resolveSettings } from '../src/settings.js';
import { ConfigError } from '../src/api/errors.js';

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
