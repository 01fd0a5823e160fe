/**
 * Annotation fields as versioned objects (as Weave keeps its annotation specs): a field `name` is object `name` of
 * class `AnnotationSpec`, each distinct spec a version (same spec, same digest), its ref
 * `svc:///<project>/object/<name>:<digest>`. The value also carries `field_schema`, the JSON Schema of an answer's
 * `value`, as Weave's `AnnotationSpec` does.
 * @module
 */
import type { z } from 'zod';
import { ANNOTATION_SPEC_CLASS, type AnnotationField, type AnnotationFieldSpec, fieldRef, type FieldCreateReq, parseRef } from 'weft-trace/wire';
import { HttpError } from '../http/http-error.js';
import type { ObjectStore, ObjInput } from '../objects/object-store.js';

/** The JSON Schema of an answer's `value` to a field. */
function fieldSchema(f: AnnotationFieldSpec): Record<string, unknown> {
  if (f.type === 'thumbs') return { type: 'boolean' };
  if (f.type === 'score') return { type: 'number', minimum: f.min ?? 0, maximum: f.max ?? 1, ...(f.step ? { multipleOf: f.step } : {}) };
  if (f.type === 'category') return f.multiple ? { type: 'array', items: { enum: f.labels }, uniqueItems: true } : { enum: f.labels };
  if (f.type === 'preference') return { enum: ['a', 'b', 'tie'] };
  return { type: 'string' };
}

/** The spec of a validated create body: defaults written out (a score's range 0 to 1), absent options left out. */
function specOf(body: z.output<typeof FieldCreateReq>): AnnotationFieldSpec {
  const { project_id: _p, ...f } = body;
  const spec: AnnotationFieldSpec = { name: f.name, type: f.type, description: f.description };
  if (f.type === 'score') Object.assign(spec, { min: f.min ?? 0, max: f.max ?? 1 }, f.step ? { step: f.step } : {});
  if (f.type === 'category') Object.assign(spec, { labels: f.labels, multiple: f.multiple ?? false });
  return spec;
}

/** The spec in a stored value, or undefined for a value that is no annotation field. */
function specIn(val: unknown): AnnotationFieldSpec | undefined {
  if (val === null || typeof val !== 'object') return undefined;
  const { name, type, description, min, max, step, labels, multiple } = val as Record<string, unknown>;
  if (typeof name !== 'string' || typeof type !== 'string') return undefined;
  return { name, type, description: typeof description === 'string' ? description : '', ...{ min, max, step, labels, multiple } } as AnnotationFieldSpec;
}

/** Stores a field's spec as the next version of its object (or finds the version holding it). @returns the field. */
export async function createField(objects: ObjectStore, body: z.output<typeof FieldCreateReq>, now: Date): Promise<AnnotationField> {
  const spec = specOf(body);
  const val = { _type: ANNOTATION_SPEC_CLASS, _class_name: ANNOTATION_SPEC_CLASS, _bases: ['Object', 'BaseModel'], ...spec, field_schema: fieldSchema(spec) };
  const { digest } = await objects.create({ project_id: body.project_id, object_id: spec.name, val: val as ObjInput['val'], builtin_object_class: ANNOTATION_SPEC_CLASS }, now);
  const stored = await objects.read({ project_id: body.project_id, object_id: spec.name, digest });
  return { ...spec, ref: fieldRef(body.project_id, spec.name, digest), digest, version_index: stored.version_index };
}

/** The latest version of each field of a project, by name. */
export async function listFields(objects: ObjectStore, projectId: string): Promise<AnnotationField[]> {
  const objs = await objects.query({ project_id: projectId, filter: { base_object_classes: [ANNOTATION_SPEC_CLASS], latest_only: true }, sort_by: [{ field: 'object_id', order: 'asc' }] });
  return objs.flatMap((o) => {
    const spec = specIn(o.val);
    return spec ? [{ ...spec, ref: fieldRef(projectId, o.object_id, o.digest), digest: o.digest, version_index: o.version_index }] : [];
  });
}

/**
 * The specs of field versions by ref, in the order given.
 * @throws HttpError 422 (at `loc`, with the index) for a ref of another project or a version that is no stored field.
 */
export async function resolveFields(objects: ObjectStore, projectId: string, refs: readonly string[], loc: string[]): Promise<(AnnotationFieldSpec & { ref: string })[]> {
  const keys = refs.map((ref) => {
    const parsed = parseRef(ref);
    const [object_id = '', digest = ''] = parsed?.kind === 'object' && parsed.project === projectId ? parsed.rest.split(':') : [];
    return { object_id, digest };
  });
  const vals = await objects.readVals(projectId, keys.filter((k) => k.object_id !== ''));
  return keys.map((k, i) => {
    const spec = specIn(vals.get(`${k.object_id}:${k.digest}`));
    if (!spec) {
      throw HttpError.validation([{ loc: [...loc, String(i)], msg: `no annotation field version ${JSON.stringify(refs[i])} in project ${projectId}`, type: 'value_error' }]);
    }
    return { ...spec, ref: refs[i]! };
  });
}
