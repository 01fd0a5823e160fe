/**
 * The item under review: its call as chat for a model call (else its inputs and output as JSON), its trace one click
 * away, a pair's two calls side by side (A and B), and the call's feedback so far (every answer, previous ones too).
 * @module
 */
import type { QueueItem } from 'weft-trace/viewer';
import type { CallRecord } from '../api';
import { ChatSection } from '../chat/chat-section';
import { chatOfCall } from '../chat/chat-of-call';
import { FeedbackPanel } from '../feedback/feedback-panel';
import type { FeedbackRecord } from '../feedback/feedback-items';
import { callName } from '../format';
import { JsonView } from '../json-view';
import { href } from '../route';

function OneCall({ project, call, label, threadId }: { project: string; call: CallRecord; label?: string; threadId?: string | null }) {
  const chat = chatOfCall(call);
  return (
    <div class="rv-call" data-call={call.id}>
      <div class="rv-call-head">
        {label ? <b class="rv-pair-label">{label}</b> : null} <b>{callName(call)}</b>{' '}
        <a href={href({ view: 'trace', project, traceId: call.trace_id, callId: call.id })}>open its trace</a>
        {threadId ? <> · <a href={href({ view: 'thread', project, threadId })}>open its thread</a></> : null}
      </div>
      {chat ? <ChatSection call={call} chat={chat} /> : (
        <>
          <h4>Inputs</h4><JsonView value={call.inputs} />
          <h4>Output</h4><JsonView value={call.output} />
        </>
      )}
    </div>
  );
}

export function ItemView({ project, item, calls, feedbackKey, onError }: { project: string; item: QueueItem; calls: CallRecord[]; feedbackKey: number; onError: (e: unknown) => void }) {
  const [first, second] = calls;
  if (!first) return <p class="error">The call {item.call_id} of this item is not stored (any more).</p>;
  return (
    <div class="rv-item-view" data-item={item.id}>
      {second ? (
        <div class="rv-pair">
          <OneCall project={project} call={first} label="A" />
          <OneCall project={project} call={second} label="B" />
        </div>
      ) : <OneCall project={project} call={first} threadId={item.thread_id} />}
      <details open class="section rv-feedback">
        <summary>Feedback on this call (previous answers)</summary>
        <FeedbackPanel key={`${first.id}/${feedbackKey}`} project={project} callId={first.id} initial={(first.summary.feedback ?? []) as FeedbackRecord[]} onError={onError} />
      </details>
    </div>
  );
}
