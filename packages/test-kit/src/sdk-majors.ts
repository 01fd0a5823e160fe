/**
 * Test helper: the provider SDK majors installed side by side (the previous major under its own name, the current one
 * under an npm alias such as `openai-v7`), each kept only where the running Node.js meets its `engines.node`.
 * @module
 */
import { readFileSync } from 'node:fs';

/** One installed major of an SDK: a label for test names (`openai 7.59.0`) and what the tests use of it, loaded. */
export interface SdkMajor<M> {
  readonly label: string;
  readonly sdk: M;
}

/** The lowest Node.js major an `engines.node` range admits (`>=22`, `>=22.0.0`, `^20.18.1 || >=22`), 0 when it names none. */
export function lowestNodeMajor(range: string | undefined): number {
  const majors = [...(range ?? '').matchAll(/(\d+)(?:\.\d+){0,2}/g)].map((m) => Number(m[1]));
  return majors.length === 0 ? 0 : Math.min(...majors);
}

function manifest(pkg: string): { version: string; engines?: { node?: string } } {
  return JSON.parse(readFileSync(new URL(`../../../node_modules/${pkg}/package.json`, import.meta.url), 'utf8')) as { version: string; engines?: { node?: string } };
}

/** True when this Node.js is at or above the lowest major the installed package's `engines.node` names. */
export function runsHere(pkg: string): boolean {
  return Number(process.versions.node.split('.')[0]) >= lowestNodeMajor(manifest(pkg).engines?.node);
}

/**
 * The majors of one SDK to test here, in the order given (package name -> loader): those whose engines this Node
 * meets, each loaded and labelled `<name> <installed version>`. The previous major has no engines floor above the
 * oldest Node the project supports, so every run tests at least it.
 */
export async function majorsOf<M>(name: string, loaders: Record<string, () => Promise<M>>): Promise<SdkMajor<M>[]> {
  const out: SdkMajor<M>[] = [];
  for (const [pkg, load] of Object.entries(loaders)) {
    if (runsHere(pkg)) out.push({ label: `${name} ${manifest(pkg).version}`, sdk: await load() });
  }
  return out;
}
