/**
 * Reads parameter names from a function's source when that is unambiguous; otherwise reports none.
 * @module
 */

const IDENT = /^(\.\.\.)?\s*([A-Za-z_$][\w$]*)\s*(?:=[\s\S]*)?$/;

/**
 * Names of `fn`'s parameters, one per position (`undefined` where a position is destructured).
 * A rest parameter is marked with a leading `...`. Returns `[]` for native or unreadable functions.
 */
export function parameterNames(fn: Function): (string | undefined)[] {
  let src: string;
  try {
    src = Function.prototype.toString.call(fn);
  } catch {
    return [];
  }
  if (src.includes('[native code]')) return [];
  const list = paramList(stripComments(src));
  if (list === undefined || list.trim() === '') return [];
  return splitTopLevel(list).map((part) => {
    const m = IDENT.exec(part.trim());
    if (!m) return undefined;
    return m[1] ? `...${m[2]}` : m[2];
  });
}

/** The text between the parameter list's parentheses (or a bare arrow parameter). */
function paramList(src: string): string | undefined {
  const arrow = /^(?:async\s+)?([A-Za-z_$][\w$]*)\s*=>/.exec(src);
  if (arrow) return arrow[1];
  const open = src.indexOf('(');
  if (open < 0) return undefined;
  let depth = 0;
  for (let i = open; i < src.length; i++) {
    const c = src[i];
    if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return src.slice(open + 1, i);
  }
  return undefined;
}

/** Splits on commas that are not nested in brackets, braces, parentheses or strings. */
function splitTopLevel(list: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | undefined;
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    const c = list[i] as string;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'" || c === '`') quote = c;
    else if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) depth--;
    else if (c === ',' && depth === 0) {
      parts.push(list.slice(start, i));
      start = i + 1;
    }
  }
  const last = list.slice(start);
  if (last.trim()) parts.push(last);
  return parts;
}

function stripComments(src: string): string {
  return src.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/[^\n]*/g, '');
}
