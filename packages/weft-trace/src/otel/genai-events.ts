/**
 * Chat messages carried by a span's events rather than its attributes (OTel GenAI semantic conventions): the
 * per-message events `gen_ai.{system,user,assistant,tool}.message` and `gen_ai.choice` (v1.28 to v1.36), the
 * `gen_ai.client.inference.operation.details` event (v1.37+), and the older `gen_ai.content.prompt` /
 * `gen_ai.content.completion` events. Read into the call's `inputs` and `output` when the attributes hold none.
 * @module
 */
import { mapAttributes, type MappedAttributes } from './attribute-table.js';
import { type ChatMessage, messagesFrom, normalizeMessage, parseJson } from './genai-messages.js';
import type { SpanEventRecord, SpanRecord } from './span-record.js';

const ROLE_EVENT = /^gen_ai\.(system|user|assistant|tool)\.message$/;

/** An event's message fields: its attributes, or the JSON body some instrumentations put in `gen_ai.event.content`. */
function eventFields(e: SpanEventRecord): Record<string, unknown> {
  const body = parseJson(e.attributes['gen_ai.event.content']);
  const fields: Record<string, unknown> = body !== null && typeof body === 'object' && !Array.isArray(body) ? { ...body } : {};
  for (const [k, v] of Object.entries(e.attributes)) if (!k.startsWith('gen_ai.') && fields[k] === undefined) fields[k] = parseJson(v);
  return fields;
}

/** The request and reply messages of `events`, in event order; either `undefined` when the events carry none. */
export function eventMessages(events: readonly SpanEventRecord[]): { input?: ChatMessage[]; output?: ChatMessage[] } {
  const input: ChatMessage[] = [];
  const output: ChatMessage[] = [];
  for (const e of events) {
    const role = ROLE_EVENT.exec(e.name)?.[1];
    if (role) {
      const f = eventFields(e);
      if (role === 'tool' && typeof f.id === 'string' && f.tool_call_id === undefined) f.tool_call_id = f.id;
      input.push(normalizeMessage({ ...f, role }));
    } else if (e.name === 'gen_ai.choice') {
      const f = eventFields(e);
      const message = parseJson(f.message);
      const msg = normalizeMessage({ role: 'assistant', ...(message !== null && typeof message === 'object' ? message : {}) });
      if (typeof f.finish_reason === 'string') msg.finish_reason = f.finish_reason;
      output.push(msg);
    } else if (e.name === 'gen_ai.client.inference.operation.details') {
      input.push(...(messagesFrom(e.attributes['gen_ai.input.messages']) ?? []));
      output.push(...(messagesFrom(e.attributes['gen_ai.output.messages']) ?? []));
    } else if (e.name === 'gen_ai.content.prompt') input.push(...(messagesFrom(e.attributes['gen_ai.prompt']) ?? []));
    else if (e.name === 'gen_ai.content.completion') output.push(...(messagesFrom(e.attributes['gen_ai.completion']) ?? []));
  }
  return { ...(input.length > 0 ? { input } : {}), ...(output.length > 0 ? { output } : {}) };
}

/**
 * A span's attributes mapped by the table ({@link mapAttributes}), with the messages of its events as `inputs`
 * / `output` where the attributes gave none (the events stay whole in `otel_dump`).
 */
export function mapSpan(span: Pick<SpanRecord, 'attributes' | 'events'>): MappedAttributes {
  const mapped = mapAttributes(span.attributes);
  if (span.events.length === 0) return mapped;
  const { input, output } = eventMessages(span.events);
  if (input && mapped.inputs.messages === undefined) mapped.inputs = { ...mapped.inputs, messages: input };
  if (output && mapped.output === undefined) mapped.output = { messages: output };
  return mapped;
}
