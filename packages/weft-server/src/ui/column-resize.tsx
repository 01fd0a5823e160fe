/**
 * A handle on a column's right edge that resizes it: dragged with the pointer, or moved with the arrow keys; tells
 * the new width (px, from the column's width when the drag began) to `onResize`, which owns the width.
 * @module
 */

/** Pixels one arrow key press moves the edge. */
const KEY_STEP_PX = 24;

export function ColumnResize({ label, onResize }: { label: string; onResize: (widthPx: number) => void }) {
  /** The width of the column the handle sits in (its parent element). */
  const widthOf = (el: Element): number => el.parentElement?.getBoundingClientRect().width ?? 0;
  const onPointerDown = (e: PointerEvent): void => {
    const handle = e.currentTarget as HTMLElement;
    const startX = e.clientX;
    const startWidth = widthOf(handle);
    handle.setPointerCapture(e.pointerId);
    const move = (m: PointerEvent): void => onResize(startWidth + m.clientX - startX);
    const up = (): void => {
      handle.removeEventListener('pointermove', move);
      handle.removeEventListener('pointerup', up);
      handle.removeEventListener('pointercancel', up);
    };
    handle.addEventListener('pointermove', move);
    handle.addEventListener('pointerup', up);
    handle.addEventListener('pointercancel', up);
    e.preventDefault();
  };
  const onKeyDown = (e: KeyboardEvent): void => {
    const step = e.key === 'ArrowRight' ? KEY_STEP_PX : e.key === 'ArrowLeft' ? -KEY_STEP_PX : 0;
    if (step === 0) return;
    onResize(widthOf(e.currentTarget as Element) + step);
    e.preventDefault();
  };
  return <span class="col-resize" role="separator" aria-orientation="vertical" aria-label={label} tabIndex={0} onPointerDown={onPointerDown} onKeyDown={onKeyDown} />;
}
