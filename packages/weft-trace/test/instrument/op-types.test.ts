// @weft-test: runtime
// Type tests of the public generics Op<F> and Invoked<R> (checked by `npm run typecheck`): an op types exactly like its function, and invoke() returns [result, call], or a promise of it when the function returns a thenable.
import { describe, expectTypeOf, it } from 'vitest';
import { op, type CurrentCall, type Invoked, type Op } from '../../src/index.js';

type Recorded = CurrentCall | undefined;

describe('Invoked<R>', () => {
  it('is [R, call] for a value that is not a thenable', () => {
    expectTypeOf<Invoked<number>>().toEqualTypeOf<[number, Recorded]>();
    expectTypeOf<Invoked<void>>().toEqualTypeOf<[void, Recorded]>();
    expectTypeOf<Invoked<{ a: string[] }>>().toEqualTypeOf<[{ a: string[] }, Recorded]>();
    // streams are returned as they are (traced), not awaited
    expectTypeOf<Invoked<Generator<number>>>().toEqualTypeOf<[Generator<number>, Recorded]>();
    expectTypeOf<Invoked<AsyncGenerator<string>>>().toEqualTypeOf<[AsyncGenerator<string>, Recorded]>();
  });

  it('is a promise of [awaited value, call] for a promise or any other thenable', () => {
    expectTypeOf<Invoked<Promise<string>>>().toEqualTypeOf<Promise<[string, Recorded]>>();
    expectTypeOf<Invoked<PromiseLike<number[]>>>().toEqualTypeOf<Promise<[number[], Recorded]>>();
    expectTypeOf<Invoked<Promise<AsyncIterable<number>>>>().toEqualTypeOf<Promise<[AsyncIterable<number>, Recorded]>>();
  });

  it('distributes over a union of the two', () => {
    expectTypeOf<Invoked<string | Promise<number>>>().toEqualTypeOf<[string, Recorded] | Promise<[number, Recorded]>>();
  });
});

describe('Op<F>', () => {
  const sync = (a: number, b: string): string => `${a}${b}`;
  const asyncFn = async (x: { q: string }): Promise<number> => x.q.length;
  function* numbers(n: number): Generator<number, void, undefined> {
    for (let i = 0; i < n; i++) yield i;
  }

  it('is what op() returns, and callable exactly like the function', () => {
    expectTypeOf(op(sync)).toEqualTypeOf<Op<typeof sync>>();
    expectTypeOf(op(sync)).toExtend<typeof sync>();
    expectTypeOf(op(sync)).parameters.toEqualTypeOf<[number, string]>();
    expectTypeOf(op(sync)).returns.toEqualTypeOf<string>();
    expectTypeOf(op(asyncFn)).returns.toEqualTypeOf<Promise<number>>();
    expectTypeOf(op(numbers)).returns.toEqualTypeOf<Generator<number, void, undefined>>();
    expectTypeOf(op(sync)).toBeCallableWith(1, 'x');
    // @ts-expect-error the arguments are checked as the function's
    expectTypeOf(op(sync)).toBeCallableWith('1', 'x');
  });

  it('adds invoke() with the same parameters, returning Invoked of the return type', () => {
    expectTypeOf(op(sync).invoke).parameters.toEqualTypeOf<[number, string]>();
    expectTypeOf(op(sync).invoke).returns.toEqualTypeOf<[string, Recorded]>();
    expectTypeOf(op(asyncFn).invoke).returns.toEqualTypeOf<Promise<[number, Recorded]>>();
    expectTypeOf(op(numbers).invoke).returns.toEqualTypeOf<[Generator<number, void, undefined>, Recorded]>();
    // @ts-expect-error invoke() takes the function's arguments too
    expectTypeOf(op(sync).invoke).toBeCallableWith(1);
  });

  it('keeps `this` of a function that declares it, for the call and for invoke()', () => {
    interface Agent {
      model: string;
    }
    const ask = function (this: Agent, q: string): string {
      return `${this.model}: ${q}`;
    };
    expectTypeOf(op(ask)).thisParameter.toEqualTypeOf<Agent>();
    expectTypeOf(op(ask).invoke).thisParameter.toEqualTypeOf<Agent>();
  });

  it('keeps a generic function generic', () => {
    const first = <T>(items: T[]): T | undefined => items[0];
    const traced = op(first);
    expectTypeOf<ReturnType<typeof traced<string>>>().toEqualTypeOf<string | undefined>();
  });
});
