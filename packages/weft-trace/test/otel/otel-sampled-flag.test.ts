// @weft-test: isolated (OpenTelemetry's global context manager)
// The OTel bridge sends the W3C sampled flag on: the span context standing for an op's call is sampled, unless
// init({ sampling }) leaves its trace out whatever happens in it (rate, no tail rule), so OTel code and propagators
// below it (an HTTP client's traceparent) carry the same decision.
import { context, trace, TraceFlags } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { init, op, shutdown, type SamplingOptions } from '../../src/index.js';
import { uniqueProject } from 'weft-test-kit/calls.js';
import { useTestServer } from 'weft-test-kit/server.js';

const server = useTestServer();
beforeAll(() => void context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable()));
afterAll(() => context.disable());

async function flagIn(sampling: SamplingOptions | undefined): Promise<number | undefined> {
  init({ project: uniqueProject('otel-flag'), baseUrl: server().url, printViewerLink: false, ...(sampling ? { sampling } : {}) });
  const flags = await op(async function work() {
    return trace.getActiveSpan()?.spanContext().traceFlags;
  })();
  await shutdown();
  return flags;
}

it('is sampled without sampling, at rate 1, and with a tail rule that may keep the trace; not sampled when the rate leaves it out', async () => {
  expect(await flagIn(undefined)).toBe(TraceFlags.SAMPLED);
  expect(await flagIn({ rate: 1 })).toBe(TraceFlags.SAMPLED);
  expect(await flagIn({ rate: 0 })).toBe(TraceFlags.SAMPLED);
  expect(await flagIn({ rate: 0, keepErrors: false })).toBe(TraceFlags.NONE);
});
