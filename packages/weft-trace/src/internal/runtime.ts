/**
 * What the runtime offers, read without importing a `node:` module: Node.js, Bun, Deno and Cloudflare Workers
 * (`nodejs_compat`) have `process.getBuiltinModule`; Vercel Edge has no `process`, no `Buffer` and no `node:`
 * modules, so the SDK's load and its export path reach none of them there (issue 30).
 * @module
 */
import type * as AsyncHooks from 'node:async_hooks';
import type * as ChildProcess from 'node:child_process';
import type * as Crypto from 'node:crypto';
import type * as Fs from 'node:fs';
import type * as Http from 'node:http';
import type * as Https from 'node:https';
import type * as Module from 'node:module';
import type * as Os from 'node:os';
import type * as Path from 'node:path';
import type * as Url from 'node:url';

/** The builtins the SDK may use, by specifier. */
interface Builtins {
  'node:async_hooks': typeof AsyncHooks;
  'node:child_process': typeof ChildProcess;
  'node:crypto': typeof Crypto;
  'node:fs': typeof Fs;
  'node:http': typeof Http;
  'node:https': typeof Https;
  'node:module': typeof Module;
  'node:os': typeof Os;
  'node:path': typeof Path;
  'node:url': typeof Url;
}

type Host = { process?: { getBuiltinModule?: (id: string) => unknown; env?: Record<string, string | undefined> } };

/** A Node.js builtin module where the runtime has it, else `undefined` (Vercel Edge). */
export function nodeBuiltin<K extends keyof Builtins>(id: K): Builtins[K] | undefined {
  try {
    return (globalThis as Host).process?.getBuiltinModule?.(id) as Builtins[K] | undefined;
  } catch {
    return undefined;
  }
}

/** The environment variables (`process.env`), or an empty object where the runtime has none. */
export function runtimeEnv(): Record<string, string | undefined> {
  return (globalThis as Host).process?.env ?? {};
}

const hasBuffer = typeof Buffer === 'function';
const encoder = new TextEncoder();

/** The UTF-8 length of `text` in bytes. */
export function utf8Length(text: string): number {
  return hasBuffer ? Buffer.byteLength(text) : encoder.encode(text).length;
}

/** Base64 of `bytes`. */
export function base64Of(bytes: Uint8Array): string {
  if (hasBuffer) return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** The bytes of base64 text (standard or URL-safe alphabet; characters outside it are skipped). */
export function bytesOfBase64(text: string): Uint8Array {
  if (hasBuffer) return Buffer.from(text, 'base64');
  const bin = atob(text.replace(/-/g, '+').replace(/_/g, '/').replace(/[^A-Za-z0-9+/]/g, ''));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** Whether the runtime has Node.js's `Buffer` (everywhere but Vercel Edge). */
export const HAS_BUFFER = hasBuffer;
