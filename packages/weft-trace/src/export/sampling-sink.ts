/**
 * The sink `init()` installs: the exporter itself, or with `sampling` set, a TraceSampler in front of it (so with
 * sampling off the traced path is exactly what it was).
 * @module
 */
import type { CallSink } from '../instrument/sink.js';
import { CallExporter } from './exporter.js';
import { samplingConfig, type SamplingOptions } from './sampling-options.js';
import { TraceSampler } from './trace-sampler.js';

/** The sampler whose counts the exit reports (the last one made); one exit listener for all. */
let reported: TraceSampler | undefined;

/** `exporter`, or a {@link TraceSampler} over it when `options` are given; the sampling counts are said once at exit. */
export function samplingSink(exporter: CallExporter, options: SamplingOptions | undefined): CallSink {
  if (options === undefined) return exporter;
  const sampler = new TraceSampler(exporter, samplingConfig(options));
  if (reported === undefined && typeof (globalThis as { process?: { once?: unknown } }).process?.once === 'function') {
    process.once('exit', () => reported?.report());
  }
  reported = sampler;
  return sampler;
}

/** The exporter behind `sink` (itself, or a sampler's, whose held traces are sent first), to hand its queue on. */
export function exporterOf(sink: CallSink | null | undefined): CallExporter | undefined {
  if (sink instanceof CallExporter) return sink;
  if (sink instanceof TraceSampler) {
    sink.releaseAll();
    return sink.inner instanceof CallExporter ? sink.inner : undefined;
  }
  return undefined;
}
