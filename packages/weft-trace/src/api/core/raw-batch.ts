/**
 * Internal: the batch endpoints for bodies already serialized as `{"batch": [...]}` (the exporter's events, serialized once when queued); not part of the public client.
 * @module
 */
import { z } from 'zod';
import { ENDPOINTS } from '../../schema/endpoints.js';
import type { Client } from '../client.js';
import type { RequestOptions } from './transport.js';

/**
 * What a raw batch post checks of an answer: an object with a `res` array (one item per batch item,
 * in order). The items are not parsed one by one, which a sender that only counts them does not need.
 */
export const RawBatchRes = z.looseObject({ res: z.array(z.unknown()) });

/** `{res: unknown[]}`: the answer of {@link upsertCallsRaw} and {@link createFeedbackRaw}. */
export type RawBatchRes = z.output<typeof RawBatchRes>;

/**
 * `calls.upsertBatch()` for a serialized body: sent as is, not validated; of the answer only its `res` array is checked.
 * @throws {APIError} (or a subclass; `ValidationError` naming the invalid items) when the server answers an error.
 * @see The interface spec, endpoint 5 "Start calls in batch"
 */
export function upsertCallsRaw(client: Client, body: string | Buffer, opts?: RequestOptions): Promise<RawBatchRes> {
  return client.transport.postJson(ENDPOINTS.callUpsertBatch, body, RawBatchRes, opts);
}

/**
 * {@link upsertCallsRaw} for a sender that needs only the outcome (the exporter): the answer of a
 * success is read and discarded, not parsed (its ids are those the items carry).
 * @throws {APIError} (or a subclass) when the server answers an error.
 */
export function upsertCallsUnread(client: Client, body: string | Buffer, opts?: RequestOptions): Promise<void> {
  return client.transport.postUnread(ENDPOINTS.callUpsertBatch, body, opts);
}

/**
 * `feedback.create()` for a serialized body: sent as is, not validated, items keep the ids they have
 * (none is added); of the answer only its `res` array is checked.
 * @throws {APIError} (or a subclass) when the server answers an error.
 * @see The interface spec, endpoint 2 "Create feedback in batch"
 */
export function createFeedbackRaw(client: Client, body: string | Buffer, opts?: RequestOptions): Promise<RawBatchRes> {
  return client.transport.postJson(ENDPOINTS.feedbackBatchCreate, body, RawBatchRes, opts);
}
