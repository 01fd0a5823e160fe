/**
 * The calls made from one prompt version, newest first: when, op, status, latency, cost and feedback each, linked to
 * their trace.
 * @module
 */
import type { CallRecord } from '../api';
import { feedbackBrief } from '../feedback/feedback-items';
import { callName, cost, duration, statusOf, usd } from '../format';
import { href } from '../route';
import { time } from '../time';

/** Whether `call` is a playground run (attribute `weft.playground`). */
export const isPlayground = (call: CallRecord): boolean => (call.attributes as Record<string, unknown> | undefined)?.['weft.playground'] === true;

export function VersionCalls({ project, calls, version }: { project: string; calls: readonly CallRecord[]; version: string }) {
  if (calls.length === 0) return <p class="empty" data-calls={version}>No calls made from {version} yet (calls from `prompt.format()` messages record its ref).</p>;
  return (
    <table class="ptable pcalls" data-calls={version}>
      <thead><tr><th>started</th><th>call</th><th>status</th><th class="num">latency</th><th class="num">cost</th><th class="num">feedback</th></tr></thead>
      <tbody>{calls.map((c) => {
        const usdCost = cost(c);
        const st = statusOf(c.summary.status);
        return (
          <tr data-call={c.id}>
            <td>{time(c.started_at)}</td>
            <td><a href={href({ view: 'trace', project, traceId: c.trace_id, callId: c.id })}>{callName(c)}</a>{isPlayground(c) ? <span class="muted"> playground</span> : null}</td>
            <td class={`s-${c.summary.status}`}>{st.icon} {st.word}</td>
            <td class="num" data-col="latency">{duration(c.summary.latency_ms)}</td>
            <td class="num" data-col="cost">{usdCost === null ? '—' : usd(usdCost)}</td>
            <td class="num" data-col="feedback">{feedbackBrief(c.summary.feedback) || '—'}</td>
          </tr>
        );
      })}</tbody>
    </table>
  );
}
