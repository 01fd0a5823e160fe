/**
 * The playground's routes (weft extensions, mounted after auth): `GET /weft/playground/providers` (which providers the
 * server's environment configures, never a key), `POST /weft/playground/run` (one variant, streamed) and
 * `POST /weft/playground/evaluate` (a variant over a dataset, recorded as an evaluation run) and `POST
 * /weft/playground/save` (a variant as a new version of a prompt: `{digest, ref}`). The two runs answer JSONL
 * (`application/jsonl`) as the worker writes it: `delta` lines then `end`, or `output` lines (a row answered), `row`
 * lines (its scores) then `evaluated`, or `error`. A provider without a key is a 422 whose message names the variable to set.
 * @module
 */
import type { Context } from 'hono';
import { Hono } from 'hono';
import { HttpError } from '../http/http-error.js';
import { readJsonBody } from '../http/request-body.js';
import { promptValue } from 'weft-trace/client';
import { objectRef } from 'weft-trace/viewer';
import type { ObjectStore, ObjInput } from '../objects/object-store.js';
import { EvaluateReq, RunReq, SaveReq, type Variant, type WorkerJob } from './playground-job.js';
import { missingKeyMessage, providerConfig, providerStatuses } from './providers.js';
import { runWorker } from './worker-process.js';

/** Paths of the playground's routes. */
export const PLAYGROUND_PATHS = { providers: '/weft/playground/providers', run: '/weft/playground/run', evaluate: '/weft/playground/evaluate', save: '/weft/playground/save' } as const;

/** Where the worker reaches this server: the address and port the request came in on. */
function selfUrl(c: Context): string {
  const socket = (c.env as { incoming?: { socket?: { localAddress?: string; localPort?: number } } } | undefined)?.incoming?.socket;
  if (!socket?.localPort || !socket.localAddress) return new URL(c.req.url).origin;
  const host = socket.localAddress.replace(/^::ffff:/, '');
  return `http://${host.includes(':') ? `[${host}]` : host}:${socket.localPort}`;
}

/** The API key the request presented (`Basic api:<key>`), which the worker records with; null without one. */
function presentedKey(c: Context): string | null {
  const m = /^Basic\s+(\S+)$/i.exec(c.req.header('authorization') ?? '');
  if (!m) return null;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon >= 0 ? decoded.slice(colon + 1) : null;
}

function checkKey(variant: Variant, env: NodeJS.ProcessEnv): void {
  if (providerConfig(variant.provider, env).apiKey === undefined) {
    throw HttpError.validation([{ loc: ['body', 'variant', 'provider'], msg: missingKeyMessage(variant.provider), type: 'missing_api_key' }]);
  }
}

const stream = (body: ReadableStream<Uint8Array>): Response =>
  new Response(body, { headers: { 'content-type': 'application/jsonl; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' } });

/**
 * Builds the playground's routes.
 * @param objects - where a saved variant is stored (a prompt version, as `publishPrompt` stores one).
 * @param now - the server clock.
 * @param env - the environment the provider keys and base URLs are read from (and the worker is started with). @defaultValue `process.env`
 */
export function playgroundRoutes(objects: ObjectStore, now: () => Date, env: NodeJS.ProcessEnv = process.env): Hono {
  const app = new Hono();
  app.get(PLAYGROUND_PATHS.providers, (c) => c.json({ providers: providerStatuses(env) }));
  const where = (c: Context, project: string) => ({ project_id: project, base_url: selfUrl(c), api_key: presentedKey(c) });
  app.post(PLAYGROUND_PATHS.run, async (c) => {
    const body = await readJsonBody(c, RunReq);
    checkKey(body.variant, env);
    const job: WorkerJob = { ...where(c, body.project_id), kind: 'run', variant: body.variant };
    return stream(runWorker(job, env));
  });
  app.post(PLAYGROUND_PATHS.evaluate, async (c) => {
    const body = await readJsonBody(c, EvaluateReq);
    checkKey(body.variant, env);
    const job: WorkerJob = { ...where(c, body.project_id), kind: 'evaluate', variant: body.variant, dataset_ref: body.dataset_ref, scorers: body.scorers, name: body.name };
    return stream(runWorker(job, env));
  });
  app.post(PLAYGROUND_PATHS.save, async (c) => {
    const { project_id, name, variant } = await readJsonBody(c, SaveReq);
    let val;
    try {
      val = promptValue({ name, model: variant.model, params: variant.params, messages: variant.messages, ...(variant.description ? { description: variant.description } : {}) });
    } catch (err) {
      throw HttpError.validation([{ loc: ['body', 'name'], msg: (err as Error).message, type: 'value_error' }]);
    }
    // JSON: built by promptValue from the body just parsed as JSON
    const { digest } = await objects.create({ project_id, object_id: name, val: val as unknown as ObjInput['val'] }, now());
    return c.json({ digest, ref: objectRef(project_id, name, digest) });
  });
  return app;
}
