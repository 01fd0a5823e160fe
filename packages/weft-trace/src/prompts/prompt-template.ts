/**
 * `{{variable}}` templates: the variables a template names (in TypeScript's types where the text is a literal, and at
 * run time) and their substitution.
 * @module
 */

/** `{{ name }}`: a name of letters, digits, `_` and `.` (not starting with a digit), spaces inside the braces allowed. */
const VARIABLE = /\{\{\s*([A-Za-z_][\w.]*)\s*\}\}/g;

type Trim<S extends string> = S extends ` ${infer R}` ? Trim<R> : S extends `${infer R} ` ? Trim<R> : S;

/** The variable names of a literal template text (`'Hi {{name}}'` → `'name'`); `string` for a text TypeScript does not know. */
export type TemplateVariables<S extends string> = string extends S ? string : S extends `${string}{{${infer V}}}${infer Rest}` ? Trim<V> | TemplateVariables<Rest> : never;

/** A value a variable takes: written as text (`String(value)`). */
export type VariableValue = string | number | boolean;

/** The variables of a template, each required. */
export type TemplateValues<V extends string> = [V] extends [never] ? Record<string, never> : Record<V, VariableValue>;

/** The variable names of `text`, in order of first use. */
export function variablesOf(text: string): string[] {
  const names = new Set<string>();
  for (const m of text.matchAll(VARIABLE)) names.add(m[1]!);
  return [...names];
}

/**
 * `text` with each `{{name}}` replaced by `String(values[name])`. Braces that do not form a variable stay as written.
 * @throws {PromptVariableError} naming the first variable `values` lacks (`undefined` or `null` counts as missing).
 */
export function fillTemplate(text: string, values: Record<string, unknown>, prompt: string): string {
  return text.replace(VARIABLE, (_all, name: string) => {
    const v = values[name];
    if (v === undefined || v === null) throw new PromptVariableError(prompt, name);
    return String(v);
  });
}

/** A variable of a prompt's template was not given to `format()`. */
export class PromptVariableError extends Error {
  override readonly name = 'PromptVariableError';
  constructor(
    /** The prompt's name. */
    readonly prompt: string,
    /** The missing variable. */
    readonly variable: string,
  ) {
    super(`prompt "${prompt}": variable "${variable}" is missing (format() was not given it)`);
  }
}
