/**
 * One trajectory opened: reward, metrics and logs, a link to its trace, its conversation as chat, the other
 * conversations (sub-agents) and the tools offered.
 * @module
 */
import { href } from '../route';
import type { Trajectory } from './models-api';
import { messagesAndChoices } from '../chat/chat-messages';
import { ChatView } from '../chat/chat-view';

function toolNames(tools: unknown[] | null | undefined): string {
  return (tools ?? []).map((t) => String((t as { function?: { name?: unknown } }).function?.name ?? '?')).join(', ');
}

export function TrajectoryPane({ trajectory: t, title }: { trajectory: Trajectory; title: string }) {
  const meta = t.metadata ?? {};
  const trace = typeof meta['project_id'] === 'string' && typeof meta['trace_id'] === 'string'
    ? href({ view: 'trace', project: meta['project_id'], traceId: meta['trace_id'], ...(typeof meta['call_id'] === 'string' ? { callId: meta['call_id'] } : {}) })
    : undefined;
  return (
    <div class="detail trajectory">
      <h2>reward {t.reward}</h2>
      <div class="facts">
        <span class="muted">{title}</span>
        {trace ? <a href={trace}>open its trace</a> : null}
        {t.start_time ? <span>started {t.start_time}</span> : null}
      </div>
      {Object.keys(t.metrics ?? {}).length > 0 ? <div class="facts">{Object.entries(t.metrics ?? {}).map(([k, v]) => <span><b>{k}</b> {JSON.stringify(v)}</span>)}</div> : null}
      {t.tools?.length ? <div class="facts"><span class="muted">tools:</span> {toolNames(t.tools)}</div> : null}
      <ChatView messages={messagesAndChoices(t.messages_and_choices ?? [])} />
      {(t.additional_histories ?? []).map((h, i) => (
        <details class="section" open>
          <summary>additional history {i + 1}</summary>
          <ChatView messages={messagesAndChoices(h.messages_and_choices ?? [])} />
        </details>
      ))}
      {t.logs?.length ? <details class="section"><summary>logs ({t.logs.length})</summary><pre>{t.logs.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n')}</pre></details> : null}
    </div>
  );
}
