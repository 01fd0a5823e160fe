/**
 * Stored trajectory groups as the lines trainers read: the interface's groups as JSONL, and OpenAI chat
 * fine-tuning JSONL of the best trajectories of each group.
 * @module
 */
import type { Trajectory, TrajectoryGroup } from '../schema/trajectories.js';
import { isObj, messageOf, type ChatMessage } from './chat-shape.js';

/** The formats of `weft trajectories export`. */
export const EXPORT_FORMATS = ['groups', 'openai-sft'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** One line per group: `{"trajectories":[...]}`, the interface's TrajectoryGroup shape (what the log endpoint and training jobs take). */
export function groupLines(groups: readonly TrajectoryGroup[]): string[] {
  return groups.map((g) => JSON.stringify({ trajectories: g.trajectories }));
}

/** The fields of a message the fine-tuning format takes; `content` left out when null (an assistant turn of tool calls). */
function fineTuningMessage(m: ChatMessage): Record<string, unknown> {
  const out: Record<string, unknown> = { role: m.role };
  if (m['content'] != null) out['content'] = m['content'];
  if (typeof m['name'] === 'string') out['name'] = m['name'];
  if (Array.isArray(m['tool_calls']) && m['tool_calls'].length > 0) {
    out['tool_calls'] = (m['tool_calls'] as Record<string, unknown>[]).map((c) => ({ id: c['id'], type: c['type'] ?? 'function', function: c['function'] }));
  }
  if (typeof m['tool_call_id'] === 'string') out['tool_call_id'] = m['tool_call_id'];
  return out;
}

/** A trajectory as one fine-tuning example: its messages (a choice as its message) and its tools when it has any. */
function example(t: Trajectory): Record<string, unknown> {
  const messages = (t.messages_and_choices ?? []).map(messageOf).filter((m): m is ChatMessage => isObj(m) && typeof m.role === 'string');
  const out: Record<string, unknown> = { messages: messages.map(fineTuningMessage) };
  if (t.tools && t.tools.length > 0) out['tools'] = t.tools;
  return out;
}

/**
 * One line per kept trajectory in OpenAI's chat fine-tuning format, `{"messages":[...], "tools"?:[...]}`: of each
 * group, the `topK` trajectories of highest reward (ties in logged order) that end with an assistant turn.
 * Messages keep `role`, `content`, `name`, `tool_calls` and `tool_call_id` (a choice becomes its message);
 * `additional_histories` are not exported.
 * @param topK - trajectories kept per group, an integer >= 1.
 * @see https://platform.openai.com/docs/guides/supervised-fine-tuning (data format)
 */
export function openAiSftLines(groups: readonly TrajectoryGroup[], topK = 1): string[] {
  const lines: string[] = [];
  for (const g of groups) {
    const best = g.trajectories
      .map((t, i) => ({ t, i }))
      .filter(({ t }) => messageOf(t.messages_and_choices?.at(-1))?.role === 'assistant')
      .sort((a, b) => b.t.reward - a.t.reward || a.i - b.i)
      .slice(0, topK);
    for (const { t } of best) lines.push(JSON.stringify(example(t)));
  }
  return lines;
}
