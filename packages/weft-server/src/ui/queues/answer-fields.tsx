/**
 * The fields of a queue beside the item: each with its description and its input (thumbs, the score's scale or a
 * number, category chips with their keys, a text area), the active one marked; values held by the review screen.
 * @module
 */
import type { AnnotationFieldSpec } from 'weft-trace/viewer';
import { labelKeys, scaleOf } from './review-keys';

export type Field = AnnotationFieldSpec & { ref: string };
/** Answers being given: field ref → value. */
export type Values = Record<string, unknown>;

interface FieldProps {
  field: Field;
  value: unknown;
  set: (value: unknown) => void;
}

function Thumbs({ value, set }: FieldProps) {
  return (
    <span class="rv-choices">
      <button type="button" class={value === true ? 'on' : ''} aria-pressed={value === true} onClick={() => set(value === true ? undefined : true)}>▲ up <kbd>u</kbd></button>
      <button type="button" class={value === false ? 'on' : ''} aria-pressed={value === false} onClick={() => set(value === false ? undefined : false)}>▼ down <kbd>d</kbd></button>
    </span>
  );
}

/** The digit key of the i-th value of a scale: the value itself when it is a digit, else i + 1 (`scoreOfDigit`'s inverse). */
const digitOf = (v: number, i: number): string => (Number.isInteger(v) && v >= 0 && v <= 9 ? String(v) : String((i + 1) % 10));

function Score({ field, value, set }: FieldProps) {
  const scale = scaleOf(field);
  if (!scale) {
    return <input type="number" aria-label={field.name} min={field.min} max={field.max} step="any" value={value === undefined ? '' : String(value)}
      onInput={(e) => { const t = (e.target as HTMLInputElement).value; set(t === '' ? undefined : Number(t)); }} />;
  }
  return (
    <span class="rv-choices">
      {scale.map((v, i) => <button type="button" class={value === v ? 'on' : ''} aria-pressed={value === v} onClick={() => set(v)}>{v} <kbd>{digitOf(v, i)}</kbd></button>)}
    </span>
  );
}

function Category({ field, value, set }: FieldProps) {
  const keys = labelKeys(field.labels ?? []);
  const chosen = field.multiple ? ((value as string[] | undefined) ?? []) : value === undefined ? [] : [value as string];
  const toggle = (label: string): void => {
    if (!field.multiple) return set(value === label ? undefined : label);
    const next = chosen.includes(label) ? chosen.filter((l) => l !== label) : [...chosen, label];
    set(next.length ? next : undefined);
  };
  return (
    <span class="rv-choices">
      {(field.labels ?? []).map((label) => (
        <button type="button" class={chosen.includes(label) ? 'on' : ''} aria-pressed={chosen.includes(label)} onClick={() => toggle(label)}>
          {label} {keys.get(label) ? <kbd>{keys.get(label)}</kbd> : null}
        </button>
      ))}
    </span>
  );
}

function Text({ field, value, set }: FieldProps) {
  return <textarea aria-label={field.name} rows={3} value={(value as string | undefined) ?? ''} onInput={(e) => { const t = (e.target as HTMLTextAreaElement).value; set(t === '' ? undefined : t); }} />;
}

function Preference({ value, set }: FieldProps) {
  return (
    <span class="rv-choices">
      {(['a', 'b', 'tie'] as const).map((v) => <button type="button" class={value === v ? 'on' : ''} aria-pressed={value === v} onClick={() => set(v)}>{v === 'tie' ? 'tie' : `${v.toUpperCase()} is better`} <kbd>{v === 'tie' ? '=' : v}</kbd></button>)}
    </span>
  );
}

const INPUTS = { thumbs: Thumbs, score: Score, category: Category, text: Text, preference: Preference } as const;

export function AnswerFields({ fields, values, active, setValue, setActive }: {
  fields: readonly Field[];
  values: Values;
  active: number;
  setValue: (ref: string, value: unknown) => void;
  setActive: (index: number) => void;
}) {
  return (
    <div class="rv-fields">
      {fields.map((f, i) => {
        const Input = INPUTS[f.type];
        return (
          <div class={`rv-field ${i === active ? 'active' : ''}`} data-field={f.name} onClick={() => setActive(i)}>
            <div class="rv-field-name">{f.name} <span class="muted">{f.type}{f.type === 'score' ? ` ${f.min ?? 0}–${f.max ?? 1}` : ''}</span></div>
            {f.description ? <div class="rv-field-desc muted">{f.description}</div> : null}
            <Input field={f} value={values[f.ref]} set={(v) => setValue(f.ref, v)} />
          </div>
        );
      })}
    </div>
  );
}
