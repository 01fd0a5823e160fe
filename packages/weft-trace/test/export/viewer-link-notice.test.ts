// The viewer link of the first trace (export/viewer-link-notice.ts), printed once per process when the SDK sends to a
// weft server (its GET /server_info says so), never when it sends to another server.
import { expect, it } from 'vitest';
import { resetViewerLinkNotice, ViewerLinkNotice } from '../../src/export/viewer-link-notice.js';
import { startFakeLlm } from 'weft-test-kit/fake-llm.js';
import { useTestServer } from 'weft-test-kit/server.js';

const server = useTestServer();

it('prints the viewer link of the first trace once per process when the SDK sends to weft serve, not to another server', async () => {
  const url = server().url;
  const lines: string[] = [];
  const start = (id: string, parent?: string) => ({ project_id: 'local/ui-link', id, trace_id: `trace-${id}`, op_name: 'f', started_at: new Date().toISOString(), attributes: {}, inputs: {}, ...(parent ? { parent_id: parent } : {}) });
  resetViewerLinkNotice();
  const other = await startFakeLlm(); // answers 404 to /server_info
  try {
    await new ViewerLinkNotice(other.url, 'local/ui-link', {}, (l) => lines.push(l)).seen(start('a'));
    expect(lines).toEqual([]);
  } finally {
    await other.close();
  }
  resetViewerLinkNotice();
  const notice = new ViewerLinkNotice(url, 'local/ui-link', {}, (l) => lines.push(l));
  expect(notice.seen(start('child', 'parent'))).toBeUndefined(); // not a root: no link
  await notice.seen(start('r1'));
  expect(notice.seen(start('r2'))).toBeUndefined();
  expect(lines).toEqual([`weft: trace viewer: ${url}/#/p/local%2Fui-link/trace/trace-r1 (init({ printViewerLink: false }) turns this line off)\n`]);
});
