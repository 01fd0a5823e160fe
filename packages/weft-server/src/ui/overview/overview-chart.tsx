/**
 * One uPlot chart of the overview: a value per bucket, one line per series (the totals, or each group of a split).
 * @module
 */
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { valueAxis } from '../chart-axis';

const COLORS = ['#2563eb', '#dc2626', '#16a34a', '#d97706', '#7c3aed', '#0891b2', '#db2777', '#65a30d', '#9333ea', '#ea580c', '#0d9488', '#4b5563'];

export interface ChartSeries {
  label: string;
  values: (number | null)[];
}

/** A titled line chart over bucket starts `xs` (Unix seconds); `prefix` is written before each value label (`$`). */
export function OverviewChart({ title, xs, series, prefix }: { title: string; xs: number[]; series: ChartSeries[]; prefix?: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const plot = new uPlot(
      {
        width: Math.max(el.clientWidth, 300),
        height: 200,
        legend: { show: true },
        series: [{}, ...series.map((s, i) => ({ label: s.label, stroke: COLORS[i % COLORS.length], width: 1.5, spanGaps: false, points: { show: xs.length < 60 } }))],
        axes: [{}, valueAxis(prefix)],
      },
      [xs, ...series.map((s) => s.values)],
      el,
    );
    return () => plot.destroy();
  }, [xs, series, prefix]);
  return (
    <div class="ov-chart" data-chart={title}>
      <h3>{title}</h3>
      <div ref={box} />
    </div>
  );
}
