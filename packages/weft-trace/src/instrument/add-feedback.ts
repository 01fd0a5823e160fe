/**
 * addFeedback(): attach feedback (a score, a thumbs-up, a note) to a call, sent in the background with the call events.
 * @module
 */
import { WeftError } from '../errors.js';
import { checkRequest } from '../check-request.js';
import { diag } from '../internal/diag.js';
import { FeedbackCreateReq } from '../schema/feedback.js';
import { activeContext } from './context.js';
import { getCurrentCall, type CurrentCall } from './current-call.js';
import { newId } from '../internal/ids.js';
import { getSink } from './sink.js';
import { captureFeedbackPayload } from './capture.js';
import { getTraceSettings } from './trace-settings.js';

/** What {@link addFeedback} records; the TypeScript side of spec "FeedbackCreateReq". */
export interface FeedbackOptions {
  /** What kind of feedback this is, e.g. `score`, `thumbs`, `note` (non-empty; `feedback_type` on the wire). */
  feedbackType: string;
  /** The feedback itself, any JSON object, e.g. `{ value: 0.9 }`. */
  payload: Record<string, unknown>;
  /** Who gave it (a name). @defaultValue none */
  creator?: string;
  /** Object ref of the annotation spec, `svc:///<entity>/<project>/object/<name>:<digest>`. @defaultValue none */
  annotationRef?: string;
  /** Op ref of the scorer that produced it, `svc:///<entity>/<project>/op/<name>:<digest>`. @defaultValue none */
  runnableRef?: string;
  /** Object ref of what triggered it (e.g. a monitor), `svc:///<entity>/<project>/object/<name>:<digest>`. @defaultValue none */
  triggerRef?: string;
}

/**
 * Attaches feedback to a call: `addFeedback(target, options)` to the call `target` (a call id, or the
 * `{id, ...}` from `getCurrentCall()` or `fn.invoke()`), `addFeedback(options)` to the call running here.
 * The payload is redacted (`redactKeys`) and masked (`mask`) like a call's inputs; the item is validated at once, then queued and sent in the background in batches to
 * `POST /feedback/batch/create` (spec endpoint 2) with the same retries as call events; `flush()` waits
 * for it. `svc_ref` and `call_ref` are the call ref `svc:///<entity>/<project>/call/<id>`, `svc_user_id`
 * comes from `init({ userId })`, and the id is a UUIDv7 made here, so it is known before the server answers.
 *
 * @returns the feedback id, or `undefined` when nothing is recorded: before `init()` (one warning), tracing
 *   disabled, `target` `undefined` (e.g. `invoke()` recorded no call), or the running call in an unsampled trace.
 * @throws {WeftError} from `addFeedback(options)` when no traced call is running here.
 * @throws {RequestValidationError} when an option is malformed (e.g. an empty `feedbackType`, a ref of
 *   the wrong shape); `detail` names it (`loc` `["feedback_type"]`, ...).
 * @example
 * const [answer, call] = await answerQuestion.invoke('What is weft?');
 * addFeedback(call, { feedbackType: 'score', payload: { value: 0.9 } });
 */
export function addFeedback(options: FeedbackOptions): string | undefined;
export function addFeedback(target: string | CurrentCall | undefined, options: FeedbackOptions): string | undefined;
export function addFeedback(...args: [FeedbackOptions] | [string | CurrentCall | undefined, FeedbackOptions]): string | undefined {
  const sink = getSink();
  if (sink === undefined) {
    diag.once('feedback-no-init', 'warn', 'addFeedback() called before init(): the feedback is not recorded. Call init({ project }) first.');
    return undefined;
  }
  if (sink === null) return undefined; // tracing disabled
  const options = args.length === 1 ? args[0] : args[1];
  let target: string | undefined;
  if (args.length === 1) {
    const current = getCurrentCall();
    if (!current) {
      if (activeContext()?.unsampled) return undefined;
      throw new WeftError('addFeedback(options): no traced call is running here; pass the call (e.g. from getCurrentCall() or fn.invoke()) first');
    }
    target = current.id;
  } else {
    target = typeof args[0] === 'string' ? args[0] : args[0]?.id;
  }
  if (target === undefined) return undefined;
  const ref = `svc:///${sink.projectId}/call/${target}`;
  const item = checkRequest(
    FeedbackCreateReq,
    {
      id: newId(),
      project_id: sink.projectId,
      svc_ref: ref,
      call_ref: ref,
      feedback_type: options.feedbackType,
      payload: isPlainObject(options.payload) ? captureFeedbackPayload(options.payload, getTraceSettings()) : options.payload,
      creator: options.creator,
      annotation_ref: options.annotationRef,
      runnable_ref: options.runnableRef,
      trigger_ref: options.triggerRef,
      svc_user_id: sink.userId,
    },
    'feedback',
  );
  sink.feedback(item);
  return item.id ?? undefined;
}

/** A JSON object (not an array): anything else is left for validation to refuse. */
function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
