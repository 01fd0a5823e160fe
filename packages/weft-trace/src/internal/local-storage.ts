/**
 * The context store of the running code: Node.js's `AsyncLocalStorage` where the runtime has it (Node.js, Bun,
 * Deno, Cloudflare Workers with `nodejs_compat`, through `process.getBuiltinModule`; or a global
 * `AsyncLocalStorage`, as Next.js's Edge sandbox sets), else a synchronous stand-in (Vercel Edge's bare runtime):
 * a call's context then reaches what runs synchronously inside it, up to its first `await`, and is lost after
 * it, so calls started after an `await` become roots of their own traces (said once, at the first use).
 * @module
 */
import type { AsyncLocalStorage } from 'node:async_hooks';
import { diag } from './diag.js';
import { nodeBuiltin } from './runtime.js';

/** A new store of the best kind the runtime offers. */
export function newLocalStorage<T>(): AsyncLocalStorage<T> {
  const Als = nodeBuiltin('node:async_hooks')?.AsyncLocalStorage ?? (globalThis as { AsyncLocalStorage?: typeof AsyncLocalStorage }).AsyncLocalStorage;
  if (Als) return new Als<T>();
  return new SyncLocalStorage<T>() as unknown as AsyncLocalStorage<T>;
}

/** `run` / `getStore` / `enterWith` / `exit` kept for the synchronous extent of `run` only. */
class SyncLocalStorage<T> {
  private store: T | undefined;

  getStore(): T | undefined {
    return this.store;
  }

  run<R>(store: T, fn: (...args: unknown[]) => R, ...args: unknown[]): R {
    diag.once(
      'no-async-local-storage',
      'warn',
      'this runtime has no AsyncLocalStorage: a call started after an `await` in its parent is recorded as a root of its own trace',
    );
    return this.with(store, fn, args);
  }

  exit<R>(fn: (...args: unknown[]) => R, ...args: unknown[]): R {
    return this.with(undefined, fn, args);
  }

  /** Runs `fn` with `store` current, then puts the previous one back. */
  private with<R>(store: T | undefined, fn: (...args: unknown[]) => R, args: unknown[]): R {
    const previous = this.store;
    this.store = store;
    try {
      return fn(...args);
    } finally {
      this.store = previous;
    }
  }

  enterWith(store: T): void {
    this.store = store;
  }

  disable(): void {
    this.store = undefined;
  }
}
