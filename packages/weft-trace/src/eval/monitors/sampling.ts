/**
 * Which calls a monitor scores, decided by the call id alone, and the id of its feedback, decided by the monitor and
 * the call: so a server and a worker, or a pass run again after a restart, pick the same calls and store each
 * score once (the feedback store keeps the first record of an id).
 * @module
 */
import { createHash } from 'node:crypto';

const sha256 = (text: string): Buffer => createHash('sha256').update(text).digest();

/**
 * Whether a call is in a monitor's sample: the first 32 bits of SHA-256 of the call id, as a fraction of 2^32, are
 * below `rate`. The same id always answers the same; over many ids the fraction sampled is `rate` (binomial).
 * @param callId - the call's id.
 * @param rate - the sampled fraction, in (0, 1]; 1 samples every call.
 */
export function isSampled(callId: string, rate: number): boolean {
  return sha256(callId).readUInt32BE(0) / 2 ** 32 < rate;
}

/** The id of a monitor's feedback on a call: a UUID-shaped (8-4-4-4-12 hex) digest of both ids. */
export function monitorFeedbackId(monitorId: string, callId: string): string {
  const h = sha256(`${monitorId}\u0000${callId}`).toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}
