/**
 * Finds a JSON value nested deeper than a limit, without recursion (so any depth is safe to check).
 * @module
 */

/**
 * Where the first object or array deeper than `max` is, counting `root` itself as depth 1.
 * A first pass without paths keeps the common case cheap; only a value too deep is walked again for its path.
 *
 * @param root - a parsed JSON value (no cycles).
 * @param max - the deepest nesting allowed.
 * @returns the path (keys and indexes as strings) to the first container past `max`, or undefined.
 */
export function tooDeepAt(root: unknown, max: number): string[] | undefined {
  if (!exceeds(root, max)) return undefined;
  // each entry links to its parent, so no path is copied until the one too deep is found
  interface Node {
    v: object;
    depth: number;
    key: string;
    parent: Node | undefined;
  }
  const stack: Node[] = [{ v: root as object, depth: 1, key: '', parent: undefined }];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.depth > max) {
      const path: string[] = [];
      for (let n: Node | undefined = node; n?.parent; n = n.parent) path.push(n.key);
      return path.reverse();
    }
    for (const [key, x] of Object.entries(node.v)) {
      if (x !== null && typeof x === 'object') stack.push({ v: x as object, depth: node.depth + 1, key, parent: node });
    }
  }
  return undefined;
}

/** True when some container in `root` is nested deeper than `max` (depth-first, explicit stack). */
function exceeds(root: unknown, max: number): boolean {
  if (root === null || typeof root !== 'object') return false;
  const values: object[] = [root];
  const depths: number[] = [1];
  while (values.length > 0) {
    const v = values.pop()!;
    const d = depths.pop()!;
    if (d > max) return true;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const x: unknown = v[i];
        if (x !== null && typeof x === 'object') {
          values.push(x);
          depths.push(d + 1);
        }
      }
    } else {
      for (const k in v) {
        const x: unknown = (v as Record<string, unknown>)[k];
        if (x !== null && typeof x === 'object') {
          values.push(x);
          depths.push(d + 1);
        }
      }
    }
  }
  return false;
}
