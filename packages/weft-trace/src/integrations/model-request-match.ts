/**
 * Pairing a provider wrapper's model request with the framework model run that sent it, by the texts both carry.
 * @module
 */

/** How deep {@link requestStrings} walks, and how many strings it keeps (a request's size bounds the work). */
const MAX_DEPTH = 8;
const MAX_STRINGS = 10_000;

/**
 * The strings a model request carries: its SDK method's arguments, plain objects and arrays walked (to depth 8, at
 * most 10,000 non-empty strings). A message's text is one of them whatever the provider's shape (a string
 * `content`, a `{type: 'text', text}` part, a Gemini `{text}` part, a Responses API `input_text`).
 */
export function requestStrings(args: readonly unknown[]): Set<string> {
  const out = new Set<string>();
  const walk = (v: unknown, depth: number): void => {
    if (out.size >= MAX_STRINGS) return;
    if (typeof v === 'string') {
      if (v !== '') out.add(v);
      return;
    }
    if (v === null || typeof v !== 'object' || depth > MAX_DEPTH) return;
    if (Array.isArray(v)) {
      for (const x of v) walk(x, depth + 1);
      return;
    }
    const proto = Object.getPrototypeOf(v) as unknown;
    if (proto !== Object.prototype && proto !== null) return;
    for (const k in v) walk((v as Record<string, unknown>)[k], depth + 1);
  };
  for (const a of args) walk(a, 0);
  return out;
}

/**
 * How well a request carrying `carried` ({@link requestStrings}) fits a model run that sent `texts` (its messages'
 * texts): the texts found minus the texts missing, so a run whose whole conversation the request carries beats one
 * that shares only part of it (and, of two that it carries whole, the longer wins); `undefined` when none is found.
 */
export function pairScore(texts: readonly string[], carried: ReadonlySet<string>): number | undefined {
  let found = 0;
  for (const t of texts) if (carried.has(t)) found++;
  return found === 0 ? undefined : 2 * found - texts.length;
}
