/**
 * The keys an op records its arguments under (parameter name, rest parameter or `arg<i>`) and whether each is redacted, worked out once per op.
 * @module
 */
import type { KeyRedactor } from './redact.js';

/** How the argument at one position is recorded. */
export interface InputKey {
  /** The key in `inputs`. */
  readonly key: string;
  /** A rest parameter (`...name`): it takes this argument and all after it, as an array. */
  readonly rest: boolean;
  /** The key names a secret: its value is recorded as `"REDACTED"`. */
  readonly secret: boolean;
}

/** The keys of one op, for positions `0..length-1` seen so far, valid for one redactor. */
export class InputKeys {
  private keys: InputKey[] = [];
  private redactor: KeyRedactor | undefined;

  constructor(private readonly names: readonly (string | undefined)[]) {}

  /** The keys for `count` arguments (the array may be longer); recomputed when `redactor` differs from the last one. */
  forArgs(count: number, redactor: KeyRedactor | undefined): readonly InputKey[] {
    if (redactor !== this.redactor) {
      this.redactor = redactor;
      this.keys = [];
    }
    const keys = this.keys;
    for (let i = keys.length; i < count; i++) {
      const name = this.names[i];
      const rest = name?.startsWith('...') === true;
      const key = rest ? (name as string).slice(3) : (name ?? `arg${i}`);
      keys.push({ key, rest, secret: redactor?.matches(key) === true });
    }
    return keys;
  }
}
