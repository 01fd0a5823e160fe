/**
 * Test helper: what Amazon Bedrock answers, by API and model family: Converse responses and ConverseStream events, and
 * the InvokeModel bodies (and stream chunks) of Anthropic Claude, Meta Llama, Amazon Nova and Amazon Titan Text, shaped
 * as the Bedrock model-parameter pages show them.
 * @module
 */
import { anthropicMessage, anthropicStreamEvents } from './fake-llm-anthropic.js';

type Obj = Record<string, unknown>;

/** Converse usage: 100 input tokens not cached, plus 10 read from and 5 written to the prompt cache; 20 output. */
export const CONVERSE_USAGE = { inputTokens: 100, outputTokens: 20, totalTokens: 135, cacheReadInputTokens: 10, cacheWriteInputTokens: 5 };
/** The invocation metrics Bedrock adds to a stream's last chunk. */
export const metrics = (input: number, output: number): Obj => ({ 'amazon-bedrock-invocationMetrics': { inputTokenCount: input, outputTokenCount: output, invocationLatency: 120, firstByteLatency: 40 } });

/** Whether a Converse request offers tools and has no tool result yet: the answer is then a tool use. */
export function wantsTool(body: Obj): boolean {
  const tools = (body['toolConfig'] as { tools?: unknown[] } | undefined)?.tools ?? [];
  const messages = Array.isArray(body['messages']) ? (body['messages'] as Obj[]) : [];
  const answered = messages.some((m) => Array.isArray(m['content']) && (m['content'] as Obj[]).some((b) => b['toolResult'] !== undefined));
  return tools.length > 0 && !answered;
}

/** The Converse answer's content blocks and stop reason. */
export function converseContent(tool: boolean): { content: Obj[]; stopReason: string } {
  if (tool) return { content: [{ text: 'Checking.' }, { toolUse: { toolUseId: 'tooluse_1', name: 'get_weather', input: { city: 'Paris' } } }], stopReason: 'tool_use' };
  return { content: [{ text: 'It is sunny in Paris.' }], stopReason: 'end_turn' };
}

/** A Converse response body. */
export function converseResponse(tool: boolean): Obj {
  const { content, stopReason } = converseContent(tool);
  return { output: { message: { role: 'assistant', content } }, stopReason, usage: CONVERSE_USAGE, metrics: { latencyMs: 50 } };
}

/** The ConverseStream events (name and payload), as the event stream carries them. */
export function converseEvents(tool: boolean): { name: string; payload: Obj }[] {
  const { content, stopReason } = converseContent(tool);
  const out: { name: string; payload: Obj }[] = [{ name: 'messageStart', payload: { role: 'assistant' } }];
  content.forEach((block, i) => {
    const use = block['toolUse'] as Obj | undefined;
    if (use) {
      out.push({ name: 'contentBlockStart', payload: { contentBlockIndex: i, start: { toolUse: { toolUseId: use['toolUseId'], name: use['name'] } } } });
      for (const part of ['{"city":', '"Paris"}']) out.push({ name: 'contentBlockDelta', payload: { contentBlockIndex: i, delta: { toolUse: { input: part } } } });
    } else {
      const text = String(block['text']);
      const half = Math.ceil(text.length / 2);
      for (const part of [text.slice(0, half), text.slice(half)]) out.push({ name: 'contentBlockDelta', payload: { contentBlockIndex: i, delta: { text: part } } });
    }
    out.push({ name: 'contentBlockStop', payload: { contentBlockIndex: i } });
  });
  out.push({ name: 'messageStop', payload: { stopReason } });
  out.push({ name: 'metadata', payload: { usage: CONVERSE_USAGE, metrics: { latencyMs: 50 } } });
  return out;
}

/** The family of a model id, as the fake reads it. */
export function familyOf(modelId: string): 'anthropic' | 'meta' | 'nova' | 'titan' {
  if (modelId.includes('anthropic.')) return 'anthropic';
  if (modelId.includes('meta.')) return 'meta';
  return modelId.includes('nova') ? 'nova' : 'titan';
}

/** The InvokeModel body a model answers with. */
export function invokeBody(modelId: string): Obj {
  switch (familyOf(modelId)) {
    case 'anthropic':
      return anthropicMessage({ model: 'claude-3-5-haiku-20241022', chunks: 3, kind: 'text', cut: false, includeUsage: false });
    case 'meta':
      return { generation: 'Hello from Llama.', prompt_token_count: 12, generation_token_count: 5, stop_reason: 'stop' };
    case 'nova':
      return { output: { message: { role: 'assistant', content: [{ text: 'It is sunny in Paris.' }] } }, stopReason: 'end_turn', usage: { inputTokens: 20, outputTokens: 6, totalTokens: 26, cacheReadInputTokenCount: 4, cacheWriteInputTokenCount: 0 } };
    case 'titan':
      return { inputTextTokenCount: 8, results: [{ tokenCount: 4, outputText: 'Hello from Titan.', completionReason: 'FINISH' }] };
  }
}

/** The chunks (JSON objects) of InvokeModelWithResponseStream; the last carries the invocation metrics. */
export function invokeChunks(modelId: string): Obj[] {
  switch (familyOf(modelId)) {
    case 'anthropic': {
      const events = anthropicStreamEvents({ model: 'claude-3-5-haiku-20241022', chunks: 3, kind: 'text', cut: false, includeUsage: false }).map((e) => e.data as Obj);
      events[events.length - 1] = { ...events[events.length - 1], ...metrics(1500, 80) };
      return events;
    }
    case 'meta':
      return [
        { generation: 'Hello', prompt_token_count: 12, generation_token_count: 1, stop_reason: null },
        { generation: ' from Llama.', prompt_token_count: null, generation_token_count: 5, stop_reason: 'stop', ...metrics(12, 5) },
      ];
    case 'nova':
      return [
        ...converseEvents(false).map((e) => ({ [e.name]: e.payload })).slice(0, -1),
        { metadata: { usage: { inputTokens: 20, outputTokens: 6, cacheReadInputTokenCount: 4, cacheWriteInputTokenCount: 0 }, metrics: {}, trace: {} }, ...metrics(24, 6) },
      ];
    case 'titan':
      return [
        { outputText: 'Hello', index: 0, totalOutputTextTokenCount: 1, completionReason: null, inputTextTokenCount: 8 },
        { outputText: ' from Titan.', index: 0, totalOutputTextTokenCount: 4, completionReason: 'FINISH', inputTextTokenCount: null, ...metrics(8, 4) },
      ];
  }
}
