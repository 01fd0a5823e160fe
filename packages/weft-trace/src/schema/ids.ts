/**
 * The two written forms of a call id or trace id: UUID layout with dashes (as weft stores them) and 32 hex digits without (as OTel prints them).
 * @module
 */
import { z } from 'zod';

const HEX32 = /^[0-9a-fA-F]{32}$/;
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/**
 * Every form `id` may be stored under: itself, and for 32 hex digits the UUID layout
 * (`b4494dd8364ef7b56681bdc99fad539e` → `b4494dd8-364e-f7b5-6681-bdc99fad539e`), for a UUID the 32 digits without
 * dashes. Case is kept. Any other id is answered alone.
 *
 * @param id - a call id or trace id as a person or a tool wrote it.
 * @returns `[id]` or `[id, otherForm]`.
 */
export function idForms(id: string): string[] {
  if (HEX32.test(id)) return [id, `${id.slice(0, 8)}-${id.slice(8, 12)}-${id.slice(12, 16)}-${id.slice(16, 20)}-${id.slice(20)}`];
  if (UUID.test(id)) return [id, id.replaceAll('-', '')];
  return [id];
}

/** A list of ids in a filter, each matched in both its forms ({@link idForms}); `null` means absent. */
export const IdList = z
  .array(z.string())
  .transform((ids) => [...new Set(ids.flatMap(idForms))])
  .nullish();
