/**
 * Swapping a hooked module's exports for traced ones: a class whose instances come back wrapped, and the module's
 * export bag with some names replaced (an ESM namespace in place, a CommonJS exports object by a copy).
 * @module
 */

/** A constructor of SDK clients. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ClientClass = new (...args: any[]) => object;

const TRACED = Symbol.for('weft.autoTracedClass');
/** Each class's traced subclass (an SDK exports one class under several names: `default`, `OpenAI`). */
const made = new WeakMap<ClientClass, ClientClass>();

/**
 * A subclass of `Base` whose constructor returns `wrap(this)` (an explicit wrapper such as `wrapOpenAI`), so
 * `new Base(...)` anywhere in the app gives a traced client; statics, `name` and `instanceof Base` are kept.
 * Made once per class: a class already traced is returned as it is.
 */
export function tracedClass(Base: ClientClass, wrap: (client: object) => object): ClientClass {
  if ((Base as { [TRACED]?: boolean })[TRACED]) return Base;
  const known = made.get(Base);
  if (known) return known;
  const Traced = class extends Base {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    constructor(...args: any[]) {
      super(...args);
      // eslint-disable-next-line no-constructor-return
      return wrap(this);
    }
  };
  Object.defineProperty(Traced, 'name', { value: Base.name });
  Object.defineProperty(Traced, TRACED, { value: true });
  made.set(Base, Traced);
  return Traced;
}

/** The names a patch replaces in a module's exports, with their new values. */
export type Overrides = Record<string, unknown>;

/**
 * The module's exports with `overrides` in place. An ESM namespace of import-in-the-middle (`esm`) is assigned to
 * (its setters rebind the importers' bindings); a CommonJS exports object, whose names are often getters that cannot
 * be redefined, is copied (every other name keeps its descriptor, a callable `module.exports` stays callable) and the
 * copy is returned for require-in-the-middle to hand out.
 */
export function withOverrides<T>(exports: T, overrides: Overrides, esm: boolean): T {
  if (esm) {
    for (const [k, v] of Object.entries(overrides)) (exports as Record<string, unknown>)[k] = v;
    return exports;
  }
  const source = exports as object;
  const out: Record<string, unknown> =
    typeof source === 'function'
      ? // the `module.exports = function (...args) { return new exports.default(...args) }` of the Stainless SDKs
        (function (this: unknown, ...args: unknown[]) {
          const Default = out['default'] as ClientClass;
          return new Default(...args);
        } as unknown as Record<string, unknown>)
      : {};
  for (const key of Reflect.ownKeys(source)) {
    if (typeof source === 'function' && (key === 'length' || key === 'name' || key === 'prototype')) continue;
    const d = Object.getOwnPropertyDescriptor(source, key);
    if (d) Object.defineProperty(out, key, { ...d, configurable: true });
  }
  for (const [k, v] of Object.entries(overrides)) Object.defineProperty(out, k, { value: v, writable: true, enumerable: true, configurable: true });
  return out as T;
}

/** `overrides` for each of `names` that `exports` holds as a class: its traced subclass. */
export function tracedClasses(exports: unknown, names: readonly string[], wrap: (client: object) => object): Overrides {
  const out: Overrides = {};
  const bag = exports as Record<string, unknown>;
  for (const name of names) {
    const v = bag[name];
    if (typeof v === 'function' && v.prototype !== undefined) out[name] = tracedClass(v as ClientClass, wrap);
  }
  return out;
}
