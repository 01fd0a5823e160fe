/**
 * A Proxy of an SDK client that replaces the methods named by a path spec (e.g. `chat.completions.create`) and passes everything else through.
 * @module
 */

/** Makes the traced version of `method`, a method of `owner`. */
export type MethodWrapper = (owner: object, method: Function) => Function;

/** Which properties to wrap: a nested object of property names, ending in a {@link MethodWrapper}. */
export interface PathSpec {
  readonly [key: string]: PathSpec | MethodWrapper;
}

const WRAPPED = Symbol.for('weft.wrappedClient');

/** True for a client (or sub-resource) already returned by a weft wrapper. */
export function isWrappedClient(v: unknown): boolean {
  return v !== null && typeof v === 'object' && (v as { [WRAPPED]?: unknown })[WRAPPED] === true;
}

/**
 * `obj` behind a Proxy: the properties named in `spec` come back wrapped (made once per property value,
 * so `client.chat` is the same object on every read); every other method is bound to `obj`, so classes
 * with `#private` fields keep working. `instanceof` and the type are those of `obj`.
 */
export function proxyPaths<T extends object>(obj: T, spec: PathSpec): T {
  const made = new Map<PropertyKey, { from: unknown; to: unknown }>();
  return new Proxy(obj, {
    get(t, prop) {
      if (prop === WRAPPED) return true;
      const v: unknown = Reflect.get(t, prop, t);
      const s = typeof prop === 'string' && Object.hasOwn(spec, prop) ? spec[prop] : undefined;
      if (s === undefined || v === null || (typeof v !== 'object' && typeof v !== 'function')) {
        return typeof v === 'function' && prop !== 'constructor' ? v.bind(t) : v;
      }
      const cached = made.get(prop);
      if (cached?.from === v) return cached.to;
      const to = typeof s === 'function' ? (typeof v === 'function' ? s(t, v) : v) : proxyPaths(v as object, s);
      made.set(prop, { from: v, to });
      return to;
    },
  });
}
