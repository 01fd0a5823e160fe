/**
 * The viewer's feedback writes: `/feedback/batch/create` (spec endpoint 2) and `/feedback/purge` (Weave's purge by
 * ids), and the name the viewer stores its feedback under (`creator`; its own reactions are those it can take back).
 * @module
 */
import { request } from '../api';

const NAME_ITEM = 'weft.viewer.creator';

/** The creator name of this browser (localStorage), `viewer` until set. */
export function viewerName(): string {
  return localStorage.getItem(NAME_ITEM) || 'viewer';
}

export function setViewerName(name: string): void {
  localStorage.setItem(NAME_ITEM, name.trim());
}

/** A UUIDv7 (RFC 9562): 48 bits of Unix ms, version, random; as `addFeedback` makes feedback ids. */
export function uuid7(now = Date.now()): string {
  const b = crypto.getRandomValues(new Uint8Array(16));
  for (let i = 0; i < 6; i += 1) b[i] = Math.floor(now / 2 ** (8 * (5 - i))) & 0xff;
  b[6] = (b[6]! & 0x0f) | 0x70;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** Stores one item; resolves with its `created_at`. */
export async function createFeedback(item: Record<string, unknown>): Promise<string> {
  const res = await request('/feedback/batch/create', { batch: [item] });
  return ((await res.json()) as { res: { created_at: string }[] }).res[0]!.created_at;
}

/** Deletes feedback by id. */
export async function purgeFeedback(project: string, ids: readonly string[]): Promise<void> {
  const eq = (id: string) => ({ $eq: [{ $getField: 'id' }, { $literal: id }] });
  await request('/feedback/purge', { project_id: project, query: { $expr: ids.length === 1 ? eq(ids[0]!) : { $or: ids.map(eq) } } });
}
