// @weft-test: runtime
// Recorded values are snapshots: inputs as they were at the call's start, output and attributes as they were at its end, whatever the caller changes afterwards (events are serialized later, off the caller's stack).
import { expect, it } from 'vitest';
import { op, withAttributes } from '../../src/index.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { one, traced } from 'weft-test-kit/traced-calls.js';

const server = useTestServer();

interface Doc {
  title: string;
  tags: string[];
  nested: { n: number };
}

it('records inputs as they were at the start and the output as it was at the end, though both are mutated afterwards', async () => {
  const doc: Doc = { title: 'original', tags: ['x'], nested: { n: 1 } };
  const edit = op(function edit(d: Doc) {
    d.title = 'changed in the body';
    d.tags.push('y');
    return d;
  });
  const calls = await traced(server(), 'snapshot', () => {
    const out = edit(doc);
    expect(out).toBe(doc);
    out.nested.n = 2;
    out.tags.push('after the call');
    doc.title = 'changed by the caller';
  });
  const call = one(calls, 'edit');
  expect(call.inputs).toEqual({ d: { title: 'original', tags: ['x'], nested: { n: 1 } } });
  expect(call.output).toEqual({ title: 'changed in the body', tags: ['x', 'y'], nested: { n: 1 } });
});

it('snapshots async outputs, attributes, hook results, mask results and summarize() fields too', async () => {
  const attrs = { tenant: 'acme', labels: ['a'] };
  const shared = { list: [1] };
  const fetchRow = op(async function fetchRow(row: { list: number[] }) { return row; }, {
    postprocessInputs: (inputs) => inputs, // hands back the caller's objects as they are
    summarize: () => ({ extra: shared }),
  });
  const calls = await traced(
    server(),
    'snapshot-async',
    () => withAttributes(attrs, async () => {
      const pending = fetchRow(shared);
      shared.list.push(2); // the call has started: its inputs are already taken
      const out = await pending;
      out.list.push(3); // the call has ended: its output is already taken
      attrs.labels.push('b');
    }),
    { mask: (v) => v },
  );
  const call = one(calls, 'fetchRow');
  expect(call.inputs).toEqual({ row: { list: [1] } });
  expect(call.output).toEqual({ list: [1, 2] });
  expect(call.summary).toMatchObject({ extra: { list: [1, 2] } });
  expect(call.attributes).toEqual({ tenant: 'acme', labels: ['a'] });
});
