/**
 * Reads parameter names from a function's source when that is unambiguous; otherwise reports none.
 * @module
 */

const IDENT = /^(\.\.\.)?\s*([A-Za-z_$][\w$]*)\s*(?:=[\s\S]*)?$/;
const BARE_ARROW = /^(?:async\s*)?([A-Za-z_$][\w$]*)\s*=>/;

/**
 * Names of `fn`'s parameters, one per position (`undefined` where a position is destructured or not a
 * plain name). A rest parameter is marked with a leading `...`. A small tokenizer skips strings and
 * comments, so defaults like `url = 'http://x'` are read correctly; a parameter list with a `/` outside
 * strings and comments (a regex or a division) or a template literal with `${` is not read at all.
 * Returns `[]` for native, unreadable or ambiguous functions (inputs are then named `arg0`, `arg1`, ...).
 */
export function parameterNames(fn: Function): (string | undefined)[] {
  let src: string;
  try {
    src = Function.prototype.toString.call(fn);
  } catch {
    return [];
  }
  if (src.endsWith('{ [native code] }')) return [];
  const arrow = BARE_ARROW.exec(src);
  const list = arrow ? arrow[1] : paramList(src);
  if (list === undefined) return [];
  const parts = splitTopLevel(list);
  if (parts === undefined) return [];
  return parts.map((part) => {
    const m = IDENT.exec(part.trim());
    if (!m) return undefined;
    return m[1] ? `...${m[2]}` : m[2];
  });
}

/**
 * Index just past the string, template or comment starting at `i`; `i` itself when none starts there;
 * `-1` when it is unterminated or not safely skippable (a template literal with `${`).
 */
function skipLiteral(src: string, i: number): number {
  const c = src[i];
  if (c === '/' && src[i + 1] === '/') {
    const end = src.indexOf('\n', i);
    return end < 0 ? src.length : end;
  }
  if (c === '/' && src[i + 1] === '*') {
    const end = src.indexOf('*/', i + 2);
    return end < 0 ? -1 : end + 2;
  }
  if (c !== '"' && c !== "'" && c !== '`') return i;
  for (let j = i + 1; j < src.length; j++) {
    const d = src[j];
    if (d === '\\') j++;
    else if (d === c) return j + 1;
    else if (c === '`' && d === '$' && src[j + 1] === '{') return -1;
  }
  return -1;
}

/** The text between the parameter list's parentheses; `undefined` when it cannot be read safely. */
function paramList(src: string): string | undefined {
  let open = -1;
  for (let i = 0; i < src.length && open < 0; i++) {
    const j = skipLiteral(src, i);
    if (j < 0) return undefined;
    if (j !== i) i = j - 1;
    else if (src[i] === '(') open = i;
    else if (src[i] === '{' || src[i] === '=') return undefined;
  }
  if (open < 0) return undefined;
  let depth = 0;
  for (let i = open; i < src.length; i++) {
    const j = skipLiteral(src, i);
    if (j < 0) return undefined;
    if (j !== i) {
      i = j - 1;
      continue;
    }
    const c = src[i] as string;
    if (c === '/') return undefined;
    if (c === '(' || c === '[' || c === '{') depth++;
    else if ((c === ')' || c === ']' || c === '}') && --depth === 0) return src.slice(open + 1, i);
  }
  return undefined;
}

/** Splits on commas outside brackets, strings and comments; comments are left out of the parts. */
function splitTopLevel(list: string): string[] | undefined {
  const parts: string[] = [];
  let depth = 0;
  let part = '';
  for (let i = 0; i < list.length; i++) {
    const j = skipLiteral(list, i);
    if (j < 0) return undefined;
    if (j !== i) {
      if (list[i] !== '/') part += list.slice(i, j);
      i = j - 1;
      continue;
    }
    const c = list[i] as string;
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(part);
      part = '';
      continue;
    }
    part += c;
  }
  if (part.trim() !== '') parts.push(part);
  return parts;
}
