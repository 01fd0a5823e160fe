// Type tests of client.calls: records of streamQuery() and iterate() are CallRecord, or PartialCallRecord when `columns` is given (checked by `npm run typecheck`).
import { expectTypeOf, it } from 'vitest';
import { Client, type CallRecord, type JsonlStream, type PartialCallRecord } from '../../../src/index.js';
import type { CallRecord as CallRecordSchema, PartialCallRecord as PartialCallRecordSchema } from '../../../src/schema/calls.js';

/** What `for await` yields from `T`. */
type RecordOf<T> = T extends AsyncIterable<infer R> ? R : never;

it('streamQuery() yields CallRecord without columns and PartialCallRecord with them', async () => {
  const client = new Client({ baseUrl: 'http://127.0.0.1:9' }); // nothing is sent: no stream is iterated
  try {
    const whole = client.calls.streamQuery({ project_id: 'a/b' });
    const partial = client.calls.streamQuery({ project_id: 'a/b', columns: ['op_name'] });
    expectTypeOf(whole).toEqualTypeOf<JsonlStream<typeof CallRecordSchema>>();
    expectTypeOf(partial).toEqualTypeOf<JsonlStream<typeof PartialCallRecordSchema>>();
    expectTypeOf<RecordOf<typeof whole>>().toEqualTypeOf<CallRecord>();
    expectTypeOf<RecordOf<typeof partial>>().toEqualTypeOf<PartialCallRecord>();
    expectTypeOf<RecordOf<typeof partial>>().not.toEqualTypeOf<CallRecord>();
    expectTypeOf(whole.toArray).returns.resolves.toEqualTypeOf<CallRecord[]>();
    expectTypeOf(partial.toArray).returns.resolves.toEqualTypeOf<PartialCallRecord[]>();
  } finally {
    await client.close();
  }
});

it('iterate() yields CallRecord without columns and PartialCallRecord with them', async () => {
  const client = new Client({ baseUrl: 'http://127.0.0.1:9' });
  try {
    expectTypeOf(client.calls.iterate({ project_id: 'a/b' })).toEqualTypeOf<AsyncGenerator<CallRecord>>();
    expectTypeOf(client.calls.iterate({ project_id: 'a/b', columns: ['id'] }, { pageSize: 10 })).toEqualTypeOf<AsyncGenerator<PartialCallRecord>>();
  } finally {
    await client.close();
  }
});
