/**
 * What wrapBedrock records of a Converse answer: ConverseStream events (and Amazon Nova's InvokeModel stream chunks, which are alike) folded into one Converse response.
 * @module
 */
type Obj = Record<string, unknown>;
type Block = Obj & { text?: string; toolUse?: Obj; reasoningContent?: { reasoningText?: Obj } };
type Folded = Obj & { output: { message: { role: unknown; content: Block[] } } };

const obj = (v: unknown): Obj | undefined => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined);

/** A delta applied to its block: text appended, tool-use input JSON text appended, reasoning text appended (and its signature). */
function applyDelta(block: Block, delta: Obj): void {
  if (typeof delta['text'] === 'string') block.text = (block.text ?? '') + delta['text'];
  const tool = obj(delta['toolUse']);
  if (tool && block.toolUse) block.toolUse['input'] = String(block.toolUse['input'] ?? '') + String(tool['input'] ?? '');
  const reasoning = obj(delta['reasoningContent']);
  if (reasoning) {
    const r = (block.reasoningContent ??= { reasoningText: {} }).reasoningText ?? {};
    if (typeof reasoning['text'] === 'string') r['text'] = String(r['text'] ?? '') + reasoning['text'];
    if (typeof reasoning['signature'] === 'string') r['signature'] = reasoning['signature'];
    block.reasoningContent.reasoningText = r;
  }
}

/** A tool-use block's input, parsed from its streamed JSON text once the block stops (kept as text if it does not parse). */
function closeBlock(block: Block | undefined): void {
  const tool = block?.toolUse;
  if (tool === undefined || typeof tool['input'] !== 'string') return;
  try {
    tool['input'] = JSON.parse(tool['input'] || '{}') as unknown;
  } catch {
    // a block cut mid-way keeps its partial JSON
  }
}

/**
 * Folds one ConverseStream event (`messageStart`, `contentBlockStart`, `contentBlockDelta`, `contentBlockStop`,
 * `messageStop`, `metadata`) into a Converse response: `{output: {message: {role, content}}, stopReason, usage, metrics}`.
 * The events themselves are not changed.
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html
 */
export function foldConverseEvent(acc: unknown, event: unknown): unknown {
  const a = (acc ?? { output: { message: { role: 'assistant', content: [] } } }) as Folded;
  const e = obj(event);
  if (e === undefined) return a;
  const content = a.output.message.content;
  const start = obj(e['messageStart']);
  if (start) a.output.message.role = start['role'] ?? 'assistant';
  const blockStart = obj(e['contentBlockStart']);
  if (blockStart) {
    const tool = obj(obj(blockStart['start'])?.['toolUse']);
    content[Number(blockStart['contentBlockIndex'] ?? content.length)] = tool ? { toolUse: { ...tool, input: '' } } : {};
  }
  const delta = obj(e['contentBlockDelta']);
  if (delta) {
    const i = Number(delta['contentBlockIndex'] ?? 0);
    applyDelta((content[i] ??= {}), obj(delta['delta']) ?? {});
  }
  const stop = obj(e['contentBlockStop']);
  if (stop) closeBlock(content[Number(stop['contentBlockIndex'] ?? 0)]);
  const end = obj(e['messageStop']);
  if (end) {
    a['stopReason'] = end['stopReason'];
    if (end['additionalModelResponseFields'] !== undefined) a['additionalModelResponseFields'] = end['additionalModelResponseFields'];
  }
  const meta = obj(e['metadata']);
  if (meta) {
    if (meta['usage'] !== undefined) a['usage'] = meta['usage'];
    if (meta['metrics'] !== undefined) a['metrics'] = meta['metrics'];
  }
  return a;
}

/** A Converse response without `$metadata` (the SDK's HTTP facts: status, request id, attempts): the body the API answered. */
export function withoutMetadata(out: unknown): unknown {
  const o = obj(out);
  if (o === undefined || !('$metadata' in o)) return out;
  const { $metadata: _meta, ...body } = o;
  return body;
}

/** `stopReason` of a Converse response (or Nova body), as finish reasons. */
export function converseFinishReasons(out: unknown): string[] | undefined {
  const r = obj(out)?.['stopReason'];
  return typeof r === 'string' ? [r] : undefined;
}
