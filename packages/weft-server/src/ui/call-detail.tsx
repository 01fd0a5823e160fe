/**
 * The selected call: status and timing, exception (type, message, stack), inputs, output, attributes,
 * summary (usage, costs, status counts), thread / turn / run fields and feedback.
 * @module
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { type CallRecord, exceptionOf, streamQuery } from './api';
import { callName, cost, duration, statusOf, usd } from './format';
import { time } from './time';
import { JsonView } from './json-view';
import { href } from './route';
import { chatOfCall } from './chat/chat-of-call';
import { ChatSection } from './chat/chat-section';
import { FeedbackPanel } from './feedback/feedback-panel';
import type { FeedbackRecord } from './feedback/feedback-items';
import { LOADING, type LoadState, LoadStatus, reportFailure } from './load-status';
import { AddToDataset } from './datasets/add-to-dataset';

function Section({ title, children, open = true }: { title: string; children: ComponentChildren; open?: boolean }) {
  return (
    <details open={open} class="section">
      <summary>{title}</summary>
      {children}
    </details>
  );
}

/**
 * Reads the full record of `brief` (a tree row: ids, times, summary) with its feedback and costs, again
 * whenever its status or end changes (live updates of the tree).
 */
export function CallDetail({ brief, project, onError }: { brief: CallRecord; project: string; onError: (e: unknown) => void }) {
  const [call, setCall] = useState<CallRecord | null>(null);
  const [status, setStatus] = useState<LoadState>(LOADING);
  useEffect(() => {
    let stop = false;
    streamQuery({ project_id: project, filter: { call_ids: [brief.id] }, include_feedback: true, include_costs: true }).then(
      (found) => { if (!stop && found[0]) setCall(found[0]); },
      (e: unknown) => { if (!stop) reportFailure(e, setStatus, onError); },
    );
    return () => { stop = true; };
  }, [project, brief.id, brief.summary.status, brief.ended_at, onError]);
  if (call === null) return <div class="detail"><h2>{callName(brief)}</h2><LoadStatus state={status} what="its inputs, output and feedback" /></div>;
  return <Detail call={call} project={project} onError={onError} />;
}

function Detail({ call, project, onError }: { call: CallRecord; project: string; onError: (e: unknown) => void }) {
  const st = statusOf(call.summary.status);
  const { feedback, costs, usage, status_counts, ...rest } = call.summary;
  const total = cost(call);
  const chat = chatOfCall(call);
  const exc = exceptionOf(call);
  return (
    <div class="detail" data-call={call.id}>
      <h2>{callName(call)}</h2>
      <div class="facts">
        <span class={`s-${call.summary.status}`}>{st.icon} {st.word}</span>
        <span>{duration(call.summary.latency_ms)}</span>
        <span>started {time(call.started_at)}</span>
        {total !== null ? <span>cost {usd(total)}</span> : null}
        {chat ? <a class="open-playground" href={href({ view: 'playground', project, call: call.id })}>open in playground</a> : null}
      </div>
      {call.ended_at !== null ? <AddToDataset project={project} calls={[{ id: call.id, output: call.output, label: callName(call) }]} /> : null}
      <dl class="ids">
        <dt>op</dt><dd><code>{call.op_name}</code></dd>
        <dt>call id</dt><dd><code>{call.id}</code></dd>
        {call.thread_id ? <><dt>thread</dt><dd><a href={href({ view: 'thread', project, threadId: call.thread_id })}><code>{call.thread_id}</code></a></dd></> : null}
        {call.turn_id ? <><dt>turn</dt><dd><code>{call.turn_id}</code></dd></> : null}
        {call.svc_run_id ? <><dt>run</dt><dd><code>{call.svc_run_id}</code>{call.svc_run_step !== null ? ` step ${call.svc_run_step}` : ''}</dd></> : null}
        {call.svc_user_id ? <><dt>user</dt><dd><code>{call.svc_user_id}</code></dd></> : null}
      </dl>
      {exc ? (
        <Section title="Exception">
          <div class="exception">
            <div><b class="exc-type">{exc.type ?? 'Error'}</b>: <span class="exc-message">{exc.message ?? ''}</span></div>
            {exc.stack ? <pre class="stack">{exc.stack}</pre> : null}
          </div>
        </Section>
      ) : null}
      {chat ? <ChatSection call={call} chat={chat} /> : null}
      <Section title="Inputs" open={!chat}><div class="inputs"><JsonView value={call.inputs} /></div></Section>
      <Section title="Output" open={!chat}>{call.ended_at === null ? <p class="muted">running…</p> : <div class="output"><JsonView value={call.output} /></div>}</Section>
      {call.attributes && Object.keys(call.attributes as object).length > 0 ? <Section title="Attributes"><JsonView value={call.attributes} /></Section> : null}
      <Section title="Summary">
        <JsonView value={{ ...(usage ? { usage } : {}), ...(costs && Object.keys(costs).length > 0 ? { costs } : {}), ...(status_counts ? { status_counts } : {}), ...rest }} />
      </Section>
      <Section title="Feedback">
        <FeedbackPanel key={call.id} project={project} callId={call.id} initial={(feedback ?? []) as FeedbackRecord[]} onError={onError} />
      </Section>
    </div>
  );
}
