// publishOnce() and contentKey(): what evaluate() and Dataset.publish() send once per client and content.
import { describe, expect, it } from 'vitest';
import { Client } from '../../src/index.js';
import { contentKey, publishOnce } from '../../src/eval/publish-cache.js';

const client = (): Client => new Client({ baseUrl: 'http://127.0.0.1:1' });

describe('publishOnce', () => {
  it('publishes once per client and key; another client or key publishes again', async () => {
    const a = client();
    const b = client();
    let sent = 0;
    const publish = async (): Promise<string> => `digest-${++sent}`;
    const key = contentKey('table', 'acme/demo', [{ q: 'hi' }]);
    expect(await publishOnce(a, key, publish)).toBe('digest-1');
    expect(await publishOnce(a, key, publish)).toBe('digest-1');
    expect(await publishOnce(b, key, publish)).toBe('digest-2');
    expect(await publishOnce(a, contentKey('table', 'acme/demo', [{ q: 'ho' }]), publish)).toBe('digest-3');
    expect(await publishOnce(a, contentKey('table', 'acme/other', [{ q: 'hi' }]), publish)).toBe('digest-4');
    expect(sent).toBe(4);
  });

  it('keeps no failure, and reuses nothing without a key', async () => {
    const c = client();
    const key = contentKey('object', 'acme/demo', { id: 'x' });
    await expect(publishOnce(c, key, () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await publishOnce(c, key, async () => 'ok')).toBe('ok');
    let sent = 0;
    await publishOnce(c, undefined, async () => ++sent);
    await publishOnce(c, undefined, async () => ++sent);
    expect(sent).toBe(2);
  });

  it('has no key for content without JSON', () => {
    expect(contentKey('table', 'acme/demo', [{ n: 1n }])).toBeUndefined();
    const cycle: Record<string, unknown> = {};
    cycle['self'] = cycle;
    expect(contentKey('object', 'acme/demo', cycle)).toBeUndefined();
  });
});
