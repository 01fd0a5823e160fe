/**
 * @op as a class-method decorator, for TS 5 standard decorators and legacy `experimentalDecorators`, told apart by their arguments.
 * @module
 */
import { diag } from '../internal/diag.js';
import type { OpOptions } from './op-options.js';
import type { AnyFunction } from './trace-call.js';
import { wrap } from './wrap.js';

/** The decorator returned by `op(options)`: usable with standard and with legacy decorators. */
export interface OpDecorator {
  /** TS 5 standard method decorator. */
  <This, A extends unknown[], R>(
    method: (this: This, ...args: A) => R,
    context: ClassMethodDecoratorContext<This, (this: This, ...args: A) => R>,
  ): (this: This, ...args: A) => R;
  /** Legacy (`experimentalDecorators`) method decorator. */
  (target: object, propertyKey: string | symbol, descriptor: PropertyDescriptor): void;
}

/** The context object of a standard decorator (the parts used here). */
interface DecoratorContext {
  kind: string;
  name: string | symbol;
  static?: boolean;
  private?: boolean;
}

/** True when `v` is the second argument of a standard decorator call. */
export function isDecoratorContext(v: unknown): v is DecoratorContext {
  if (v === null || typeof v !== 'object') return false;
  const c = v as Partial<DecoratorContext> & { addInitializer?: unknown };
  return typeof c.kind === 'string' && 'name' in c && typeof c.addInitializer === 'function';
}

/** True when `(a, b, c)` are the arguments of a legacy member decorator. */
export function isLegacyCall(args: readonly unknown[]): boolean {
  const [target, key, descriptor] = args;
  return args.length === 3 && (typeof target === 'object' || typeof target === 'function') && target !== null
    && (typeof key === 'string' || typeof key === 'symbol') && typeof descriptor === 'object' && descriptor !== null;
}

function labelOf(name: string | symbol): string {
  return typeof name === 'symbol' ? `[${name.description ?? ''}]` : name;
}

/** Standard decorator: returns the traced method, or `undefined` (unchanged) for getters, fields and the rest. */
export function decorateStandard(method: unknown, context: DecoratorContext, options: OpOptions): unknown {
  if (context.kind !== 'method' || typeof method !== 'function') {
    diag.warn(`@op on ${context.kind} "${labelOf(context.name)}" is ignored: only methods are traced`);
    return undefined;
  }
  const key = context.private ? undefined : context.name;
  return wrap(method as AnyFunction, options, { label: labelOf(context.name), key });
}

/** Legacy decorator: replaces `descriptor.value` with the traced method; getters and setters are left alone. */
export function decorateLegacy(target: object, key: string | symbol, descriptor: PropertyDescriptor, options: OpOptions): void {
  if (typeof descriptor.value !== 'function') {
    diag.warn(`@op on "${labelOf(key)}" is ignored: only methods are traced (not getters, setters or fields)`);
    return;
  }
  const className = typeof target === 'function' ? target.name : (target as { constructor?: { name?: string } }).constructor?.name;
  descriptor.value = wrap(descriptor.value as AnyFunction, options, { label: labelOf(key), key, className: className || undefined });
}

/** The decorator `op(options)` returns. */
export function opDecorator(options: OpOptions): OpDecorator {
  return function opDecorator(...args: unknown[]): unknown {
    if (isLegacyCall(args)) return decorateLegacy(args[0] as object, args[1] as string | symbol, args[2] as PropertyDescriptor, options);
    if (isDecoratorContext(args[1])) return decorateStandard(args[0], args[1], options);
    throw new TypeError('@op(options): use it as a method decorator (`@op({ name })` above a class method)');
  } as OpDecorator;
}
