/**
 * A windowed list of fixed-height rows: only the rows in view (plus a margin) are in the DOM, so 10,000
 * calls or 100,000 traces scroll without building 10,000 elements.
 * @module
 */
import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';

const OVERSCAN = 10;

export interface VirtualRowsProps {
  count: number;
  rowHeight: number;
  row: (index: number) => ComponentChildren;
  /** Called with the last index in view, to load more. */
  onRange?: (last: number) => void;
  class?: string;
}

export function VirtualRows({ count, rowHeight, row, onRange, class: cls }: VirtualRowsProps) {
  const box = useRef<HTMLDivElement>(null);
  const [scroll, setScroll] = useState({ top: 0, height: 800 });
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const update = (): void => setScroll({ top: el.scrollTop, height: el.clientHeight || 800 });
    update();
    el.addEventListener('scroll', update, { passive: true });
    addEventListener('resize', update);
    return () => {
      el.removeEventListener('scroll', update);
      removeEventListener('resize', update);
    };
  }, []);
  const first = Math.max(0, Math.floor(scroll.top / rowHeight) - OVERSCAN);
  const last = Math.min(count, Math.ceil((scroll.top + scroll.height) / rowHeight) + OVERSCAN);
  useLayoutEffect(() => onRange?.(last), [last, onRange]);
  const rows = [];
  for (let i = first; i < last; i += 1) {
    rows.push(
      <div key={i} class="vrow" style={{ top: `${i * rowHeight}px`, height: `${rowHeight}px` }}>
        {row(i)}
      </div>,
    );
  }
  return (
    <div ref={box} class={`vbox ${cls ?? ''}`}>
      <div style={{ height: `${count * rowHeight}px`, position: 'relative' }}>{rows}</div>
    </div>
  );
}
