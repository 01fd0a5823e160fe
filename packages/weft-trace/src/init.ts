/**
 * init(), flush() and shutdown(): set weft up for this process and drain what it has recorded.
 * @module
 */
import { Client } from './api/client.js';
import { diag } from './internal/diag.js';
import { getSink, setSink, type ExportReport } from './instrument/sink.js';
import { serializeConfig } from './instrument/serialize.js';
import { setTraceSettings } from './instrument/trace-settings.js';
import { CallExporter } from './export/exporter.js';
import { exporterOf, samplingSink } from './export/sampling-sink.js';
import { flushOnExit } from './export/lifecycle.js';
import { resolveSpoolDir } from './export/spool-location.js';
import { ViewerLinkNotice } from './export/viewer-link-notice.js';
import type { InitOptions } from './init-options.js';
import { resolveSettings } from './settings.js';
import { mediaOptionsOf } from './init-media-option.js';

/**
 * Sets weft up: resolves options (falling back to `WEFT_*` env vars), starts the background exporter
 * and makes every `op()` record its calls. Calling it again replaces the previous setup; calls that
 * started under it still end there, and its pending events are still sent. Returns the typed client
 * for the same service; `await init()` works too.
 * @example
 * const client = init({ project: 'acme/demo' }); // baseUrl defaults to http://127.0.0.1:6345
 * @throws {ConfigError} when an option or env var is malformed or `project` is missing.
 */
export function init(options: InitOptions = {}): Client {
  const settings = resolveSettings(options);
  // Export requests carry their own retry policy (maxRetries, retry*Ms); the returned client keeps the Client defaults.
  const clientOptions = { baseUrl: settings.baseUrl, apiKey: settings.apiKey };
  const previous = getSink();
  const { sampleRate, redactKeys, mask, maxStreamChunks } = settings;
  const traceSettings = { sampleRate, serialize: serializeConfig({ redactKeys }), mask, maxStreamChunks };
  setTraceSettings(traceSettings);
  if (!settings.enabled) {
    if (previous) void previous.shutdown().catch(() => undefined);
    setSink(null);
    flushOnExit(undefined);
    diag.info('tracing disabled (enabled: false or WEFT_DISABLED=true)');
    return new Client(clientOptions);
  }
  // The exporter owns its client, so closing it never affects the one returned to the caller.
  const predecessor = exporterOf(previous);
  if (previous && !predecessor) void previous.shutdown().catch(() => undefined);
  const exportClient = new Client(clientOptions);
  const spoolDir = resolveSpoolDir(settings.spoolDir, settings.baseUrl, settings.project);
  const exportOptions = { ...settings, spoolDir };
  const media = mediaOptionsOf(settings.media);
  const exporter = new CallExporter({ client: exportClient, projectId: settings.project, userId: settings.userId, options: exportOptions, predecessor, media });
  // media found in the calls' values go to this exporter's file uploader
  if (exporter.files) setTraceSettings({ ...traceSettings, serialize: serializeConfig({ redactKeys, media: exporter.files }) });
  exporter.connection = clientOptions;
  if (settings.printViewerLink) {
    const notice = new ViewerLinkNotice(exportClient.baseUrl, settings.project, exportClient.transport.authHeader('/server_info'));
    exporter.onStart = (start) => void notice.seen(start);
  }
  setSink(samplingSink(exporter, settings.sampling));
  flushOnExit(exporter, settings.exitTimeoutMs, settings.handleSignals);
  return new Client(clientOptions);
}

/** Options of {@link flush} and {@link shutdown}. */
export interface FlushOptions {
  /** Stop waiting after this many ms; what is not yet sent is reported as `pending`. @defaultValue no limit */
  timeoutMs?: number;
}

const EMPTY: ExportReport = { sent: 0, dropped: 0, spooled: 0, pending: 0 };

/**
 * Sends every queued event and resolves once the server acknowledged them (or gave up on them, or
 * they went to the disk spool); with a spool, also writes it to disk and replays it if the server
 * answers. Also happens on its own in the background and when the event loop empties. Never rejects.
 * @returns `{sent, dropped, spooled, pending}` in events: `sent` and `dropped` since `init()`,
 * `spooled` (on disk, not yet replayed) and `pending` (in memory, only after `timeoutMs`) now.
 */
export async function flush(options: FlushOptions = {}): Promise<ExportReport> {
  const sink = getSink();
  return sink ? sink.flush(options.timeoutMs) : EMPTY;
}

/**
 * Flushes, then stops recording: later calls run untraced and are not queued (no warning), and the
 * spool's open segment is closed. Never rejects.
 * @returns `{sent, dropped, spooled, pending}`, as {@link flush}.
 * @example
 * await shutdown({ timeoutMs: 5000 }); // e.g. at the end of a serverless handler
 */
export async function shutdown(options: FlushOptions = {}): Promise<ExportReport> {
  const sink = getSink();
  if (!sink) return EMPTY;
  const report = await sink.shutdown(options.timeoutMs);
  if (getSink() === sink) setSink(null);
  flushOnExit(undefined);
  return report;
}
