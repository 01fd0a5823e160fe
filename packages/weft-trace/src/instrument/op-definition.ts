/**
 * The definition of an op, worked out once when op() or @op wraps a function: its name, options and input keys.
 * @module
 */
import { diag } from '../internal/diag.js';
import { safeMessage } from '../internal/safe-message.js';
import { InputKeys } from './input-keys.js';
import type { OpOptions } from './op-options.js';
import { parameterNames } from './param-names.js';

/** Per-op data computed once, when the op is made; every call of the op reads it. */
export interface OpDefinition {
  /** The op name; for decorated methods it is completed (`Class.method`) at the first call. */
  name: string;
  readonly options: OpOptions<unknown[], unknown>;
  /** Keys of the inputs by position, from the parameter names. */
  readonly inputKeys: InputKeys;
  /** For decorated methods: finds the class name from `this` at the first call. */
  resolveName?: ((self: unknown) => string) | undefined;
}

/** Where a decorated method lives, so its op name can become `Class.method`. */
export interface MethodSite {
  /** The method's name as written (`#name` for private methods). */
  label: string;
  /** The key it is stored under on the class or prototype; `undefined` for private methods. */
  key: string | symbol | undefined;
  /** The class name when known at decoration time (legacy decorators). */
  className?: string | undefined;
}

/** The definition of the op made of `fn` with `options`; `site` is given for decorated methods. */
export function defineOp(fn: Function, options: OpOptions<unknown[], unknown>, site: MethodSite | undefined): OpDefinition {
  return {
    name: options.name ?? opName(fn, site),
    options,
    inputKeys: new InputKeys(options.parameterNames ?? parameterNames(fn)),
  };
}

/**
 * For a decorated method whose class is not known yet (standard decorators) and that has no `name`
 * option: its name becomes `Class.method` at the first call, the class found from `this` and `traced`
 * (the method as stored on the class).
 */
export function nameFromThis(op: OpDefinition, site: MethodSite, traced: Function): void {
  if (op.options.name === undefined && site.className === undefined) {
    op.resolveName = (self) => `${ownerName(self, site.key, traced)}.${site.label}`;
  }
}

/** Completes a decorated method's op name (`Class.method`) from `this`, once. */
export function resolveName(op: OpDefinition, self: unknown): void {
  const resolve = op.resolveName;
  op.resolveName = undefined;
  try {
    if (resolve) op.name = resolve(self);
  } catch (err) {
    diag.debug(`could not read the class name of op "${op.name}": ${safeMessage(err)}`);
  }
}

/** Default op name: the function's name; for a method, `Class.method` (or `method` until the class is known). */
function opName(fn: Function, site: MethodSite | undefined): string {
  if (site) return site.className ? `${site.className}.${site.label}` : site.label;
  return fn.name || 'anonymous';
}

/**
 * The class that defines the method `traced` under `key`, found from `this` (an instance or, for a static
 * method, the class): the first object on the prototype chain that owns the method. Private methods, and
 * methods not found there, use `this`'s own class.
 */
function ownerName(self: unknown, key: string | symbol | undefined, traced: Function): string {
  if (key !== undefined) {
    for (let o: unknown = self; o !== null && o !== undefined; o = Object.getPrototypeOf(o)) {
      if (Object.getOwnPropertyDescriptor(o, key)?.value === traced) return classOf(o);
    }
  }
  return classOf(self);
}

function classOf(o: unknown): string {
  const name = typeof o === 'function' ? o.name : (o as { constructor?: { name?: unknown } } | null | undefined)?.constructor?.name;
  return typeof name === 'string' && name !== '' ? name : 'anonymous';
}
