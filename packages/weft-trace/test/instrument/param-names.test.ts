// @weft-test: runtime
// parameterNames(): names read from a function's source with a small tokenizer; ambiguous lists give none.
import { describe, expect, it } from 'vitest';
import { parameterNames } from '../../src/instrument/param-names.js';

describe('parameterNames', () => {
  it('reads plain, default and rest parameters of every function form', () => {
    expect(parameterNames(function f(a: number, b = 2, ...rest: number[]) { return [a, b, rest]; })).toEqual(['a', 'b', '...rest']);
    expect(parameterNames(async (x: number, y: number) => x + y)).toEqual(['x', 'y']);
    expect(parameterNames((q: string) => q)).toEqual(['q']);
    expect(parameterNames(function* gen(n: number) { yield n; })).toEqual(['n']);
    expect(parameterNames({ method(m: number) { return m; } }.method)).toEqual(['m']);
    expect(parameterNames(() => 1)).toEqual([]);
  });

  it('skips strings and comments in defaults, e.g. a URL containing //', () => {
    // eslint-disable-next-line @typescript-eslint/no-unused-vars
    const fetchPage = function (url = 'https://example.com/a,b', /* the page */ page = 1, label = "it's ) ok") { return url; };
    expect(parameterNames(fetchPage)).toEqual(['url', 'page', 'label']);
    const withLineComment = new Function('first // the first one, really\n, second', 'return first');
    expect(parameterNames(withLineComment)).toEqual(['first', 'second']);
    const nested = new Function('opts = { a: [1, 2], b: (3) }, cb = (x, y) => x', 'return opts');
    expect(parameterNames(nested)).toEqual(['opts', 'cb']);
  });

  it('gives no name for destructured positions, and none at all when the list is ambiguous', () => {
    expect(parameterNames(({ a }: { a: number }, [b]: number[], c: number) => a + (b ?? 0) + c)).toEqual([undefined, undefined, 'c']);
    expect(parameterNames(new Function('a = /,\\)/, b', 'return a'))).toEqual([]);
    expect(parameterNames(new Function('a = 4 / 2, b', 'return a'))).toEqual([]);
    expect(parameterNames(new Function('a = `x${1}`, b', 'return a'))).toEqual([]);
    expect(parameterNames(Math.max)).toEqual([]);
    expect(parameterNames(function f() {}.bind(null))).toEqual([]);
  });
});
