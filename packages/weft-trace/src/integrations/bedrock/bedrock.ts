/**
 * wrapBedrock(): traces the AWS SDK's Bedrock Runtime client (`@aws-sdk/client-bedrock-runtime`): Converse, ConverseStream, InvokeModel and InvokeModelWithResponseStream as model calls with usage.
 * @module
 */
import { bedrockUsage } from '../../instrument/usage-model.js';
import { diag } from '../../internal/diag.js';
import { safeMessage } from '../../internal/safe-message.js';
import { isWrappedClient, proxyPaths, type MethodWrapper } from '../client-proxy.js';
import { wrapLlmMethod, type LlmMethod, type ResponseFacts } from '../llm-call.js';
import { converseFinishReasons, foldConverseEvent, withoutMetadata } from './converse-folds.js';
import { decodeJson, familyOf, foldInvokeChunk, invokeFinishReasons, invokeUsage, type BodyFamily } from './invoke-bodies.js';

type Obj = Record<string, unknown>;

/** How one Bedrock operation is traced: the LLM method, what is recorded as its request, and which output member is a stream. */
interface Operation {
  method: LlmMethod;
  view(input: Obj): Obj;
  stream?: 'stream' | 'body';
}

/** Usage is keyed by the model id asked for (`anthropic.claude-...`, `us.amazon.nova-pro-v1:0`): the server prices Bedrock ids. */
const facts = (out: unknown, body: Obj): ResponseFacts => ({ requestModel: body['modelId'], id: typeof (out as Obj | undefined)?.['id'] === 'string' ? ((out as Obj)['id'] as string) : undefined });
const BASE = { provider: 'aws.bedrock', operation: 'chat', requestModel: (body: Obj) => body['modelId'], responseFacts: facts } as const;

const CONVERSE: LlmMethod = {
  ...BASE,
  name: 'bedrock.converse',
  fold: foldConverseEvent,
  output: withoutMetadata,
  usage: (out) => bedrockUsage((out as Obj | undefined)?.['usage']),
  finishReasons: converseFinishReasons,
};

/** The InvokeModel request as recorded: its members, the body parsed from JSON (kept as sent when it is not JSON). */
function invokeView(input: Obj): Obj {
  const body = decodeJson(input['body']);
  return body === undefined ? input : { ...input, body };
}

/** Bodies decoded from the SDK's InvokeModel outputs (each read by the output, usage, finish reasons and id hooks). */
const decoded = new WeakMap<object, unknown>();

/** The model's body: an InvokeModel output's `body` parsed from JSON, or a stream's folded body as it is. */
function bodyOf(out: unknown): unknown {
  const o = out as Obj | undefined;
  if (o === undefined || o === null || typeof o !== 'object' || !('$metadata' in o)) return out;
  if (!decoded.has(o)) decoded.set(o, decodeJson(o['body']) ?? withoutMetadata(o));
  return decoded.get(o);
}

/** InvokeModel's methods for one body family (made once per family). */
function invokeMethods(family: BodyFamily): { invoke: LlmMethod; stream: LlmMethod } {
  const invoke: LlmMethod = {
    ...BASE,
    name: 'bedrock.invoke_model',
    fold: (acc, chunk) => foldInvokeChunk(family, acc, chunk),
    output: bodyOf,
    usage: (out) => invokeUsage(family, bodyOf(out)),
    finishReasons: (out) => invokeFinishReasons(family, bodyOf(out)),
    responseFacts: (out, body) => facts(bodyOf(out), body),
  };
  return { invoke, stream: { ...invoke, name: 'bedrock.invoke_model_with_response_stream' } };
}

const FAMILIES = new Map<BodyFamily, ReturnType<typeof invokeMethods>>();
const familyMethods = (f: BodyFamily): ReturnType<typeof invokeMethods> => FAMILIES.get(f) ?? (FAMILIES.set(f, invokeMethods(f)), FAMILIES.get(f)!);

/** The operation a command runs: its schema's name (`Converse`, ...), else its class name without `Command`. */
function operationName(command: unknown): string | undefined {
  const c = command as { schema?: unknown; constructor?: { name?: unknown } } | null;
  if (c === null || typeof c !== 'object') return undefined;
  if (Array.isArray(c.schema) && typeof c.schema[2] === 'string') return c.schema[2];
  const n = c.constructor?.name;
  return typeof n === 'string' && n.endsWith('Command') ? n.slice(0, -7) : undefined;
}

function operationOf(command: unknown, input: Obj): Operation | undefined {
  switch (operationName(command)) {
    case 'Converse':
      return { method: CONVERSE, view: (i) => i };
    case 'ConverseStream':
      return { method: { ...CONVERSE, name: 'bedrock.converse_stream' }, view: (i) => i, stream: 'stream' };
    case 'InvokeModel':
      return { method: familyMethods(familyOf(input['modelId'])).invoke, view: invokeView };
    case 'InvokeModelWithResponseStream':
      return { method: familyMethods(familyOf(input['modelId'])).stream, view: invokeView, stream: 'body' };
  }
  return undefined;
}

const TRACED = Symbol.for('weft.bedrockSend');

/**
 * The traced `send(command, options?)`: a command of the four operations is a model call (`wrapLlmMethod`); a
 * streaming one hands the caller its output with the stream member (`stream` / `body`) traced, the events unchanged.
 * Other commands, and the callback form, are sent untraced.
 */
function tracedSendOf(send: Function): Function {
  const traced = function tracedSend(this: object, command: unknown, ...rest: unknown[]): unknown {
    const input = (command as { input?: unknown } | null)?.input;
    const op = input !== null && typeof input === 'object' && !rest.some((r) => typeof r === 'function') ? operationOf(command, input as Obj) : undefined;
    if (op === undefined) return send.call(this, command, ...rest) as unknown;
    const self = this;
    let out: Obj | undefined;
    const request = wrapLlmMethod(op.method, self, () =>
      (send.call(self, command, ...rest) as Promise<Obj>).then((o) => {
        out = o;
        const s = op.stream === undefined ? undefined : (o?.[op.stream] as AsyncIterable<unknown> | undefined);
        if (s === undefined || typeof s[Symbol.asyncIterator] !== 'function') return o;
        return { $metadata: o['$metadata'], [Symbol.asyncIterator]: () => s[Symbol.asyncIterator]() };
      }),
    );
    const p = request(op.view(input as Obj)) as Promise<unknown>;
    if (op.stream === undefined) return p;
    const member = op.stream;
    return Promise.resolve(p).then((traced) => (out !== undefined && traced !== out ? { ...out, [member]: traced } : traced));
  };
  Object.defineProperty(traced, TRACED, { value: true });
  return traced;
}

const isTraced = (f: unknown): boolean => typeof f === 'function' && (f as { [TRACED]?: unknown })[TRACED] === true;

const sendOf: MethodWrapper = (owner, method) => {
  if (isTraced(method)) return method.bind(owner) as Function;
  const f = tracedSendOf(method);
  return (...args: unknown[]) => f.apply(owner, args) as unknown;
};

/** A method of the aggregated `BedrockRuntime` client (`converse()`, ...), run on a view whose `send` is traced. */
const throughTracedSend: MethodWrapper = (owner, method) => {
  const view = Object.create(owner) as { send: Function };
  view.send = sendOf(owner, (owner as { send: Function }).send);
  return function aggregated(...args: unknown[]): unknown {
    return method.apply(view, args) as unknown;
  };
};

/**
 * Returns `client` (a `BedrockRuntimeClient`, or the aggregated `BedrockRuntime`, of `@aws-sdk/client-bedrock-runtime`;
 * tested with 3.1164) with its model calls traced; the client itself is not changed, and the result has its type and
 * every other method. `send()` of these commands (and `converse()`, ... of `BedrockRuntime`) is an op nested under
 * the running call:
 * - `ConverseCommand` → `bedrock.converse`, `ConverseStreamCommand` → `bedrock.converse_stream`: inputs the command's
 *   input (`modelId`, `messages`, `system`, `inferenceConfig`, `toolConfig`, ...); output the Converse response
 *   without `$metadata` (a stream's events folded into one: text, tool-use input parsed from its JSON, reasoning,
 *   `stopReason`, the `metadata` event's `usage` and `metrics`);
 * - `InvokeModelCommand` → `bedrock.invoke_model`, `InvokeModelWithResponseStreamCommand` →
 *   `bedrock.invoke_model_with_response_stream`: inputs the command's input with `body` parsed from JSON; output the
 *   model's JSON body (a stream's chunks folded into the body the model would have answered at once), for the
 *   Anthropic Claude (Messages), Meta Llama (`generation`), Amazon Nova (as Converse) and Amazon Titan Text
 *   (`results`) bodies; another body is kept as its chunks merged;
 * - attributes `gen_ai.provider.name` `aws.bedrock`, `gen_ai.operation.name` `chat`, `gen_ai.request.model` (the
 *   `modelId`); summary `usage[modelId]` (Converse and Nova: `bedrockUsage`, cache reads and writes on top of the input;
 *   Anthropic: `anthropicUsage`; Llama and Titan: their token counts; else the stream's
 *   `amazon-bedrock-invocationMetrics`), `time_to_first_token_ms` (streams: to the first event), finish reasons,
 *   `request_id` (`$metadata.requestId`, the `x-amzn-requestid` header).
 * The streams the caller reads are the SDK's events, unchanged; `break` ends the call as cancelled. Errors are recorded
 * and rethrown unchanged. Other commands, and `send(command, callback)`, are not traced. The SDK is not imported.
 * Wrapping twice returns the same object; a client whose class {@link patchBedrockRuntime} patched is returned as is.
 * @example const bedrock = wrapBedrock(new BedrockRuntimeClient({ region: 'us-east-1' }));
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_Operations_Amazon_Bedrock_Runtime.html and
 * https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters.html (the bodies by model family)
 */
export function wrapBedrock<T extends object>(client: T): T {
  if (isWrappedClient(client) || isTraced((client as { send?: unknown }).send)) return client;
  return proxyPaths(client, { send: sendOf, converse: throughTracedSend, converseStream: throughTracedSend, invokeModel: throughTracedSend, invokeModelWithResponseStream: throughTracedSend });
}

/**
 * For the no-code route: patches `BedrockRuntimeClient.prototype.send` of the module's exports
 * (`@aws-sdk/client-bedrock-runtime`) in place, so every client (and `BedrockRuntime`, which extends it) traces as
 * {@link wrapBedrock}'s does. Returns whether it did; patching twice does nothing more.
 */
export function patchBedrockRuntime(exports: Obj): boolean {
  const proto = (exports['BedrockRuntimeClient'] as { prototype?: { send?: unknown } } | undefined)?.prototype;
  const send = proto?.send;
  if (proto === undefined || typeof send !== 'function') return false;
  if (isTraced(send)) return true;
  try {
    proto.send = tracedSendOf(send);
    return true;
  } catch (err) {
    diag.warn(`could not patch @aws-sdk/client-bedrock-runtime's BedrockRuntimeClient.send: ${safeMessage(err)}`);
    return false;
  }
}
