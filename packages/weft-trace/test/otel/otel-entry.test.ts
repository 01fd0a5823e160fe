// The built `weft-trace/otel` entry point: CommonJS (without require(esm)) and ESM both load and export the processor.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const run = promisify(execFile);
const node = (args: string[]) => run(process.execPath, args, { timeout: 30_000 });

it('require()s weft/otel from the CommonJS build', async () => {
  const script = `const o = require('weft-trace/otel'); console.log([typeof o.WeftSpanProcessor, typeof o.WeftSpanExporter, typeof o.mapAttributes].join(','));`;
  const { stdout } = await node(['--no-experimental-require-module', '-e', script]);
  expect(stdout.trim()).toBe('function,function,function');
});

it('imports weft/otel from the ESM build', async () => {
  const script = `const o = await import('weft-trace/otel'); console.log([typeof o.WeftSpanProcessor, typeof o.weftCallId, typeof o.defaultSpanFilter].join(','));`;
  const { stdout } = await node(['--input-type=module', '-e', script]);
  expect(stdout.trim()).toBe('function,function,function');
});
