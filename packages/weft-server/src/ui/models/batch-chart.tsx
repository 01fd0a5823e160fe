/**
 * The metrics of a model's logged batches over its steps, drawn with uPlot: reward mean, min and max, the mean
 * per-group reward std, and each numeric metric's mean.
 * @module
 */
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { Batch } from './batch-stats';

const COLORS = ['#16a34a', '#9333ea', '#ea580c', '#0891b2', '#be123c'];

export function BatchChart({ batches }: { batches: Batch[] }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el || batches.length === 0) return;
    const metrics = [...new Set(batches.flatMap((b) => Object.keys(b.metricMeans)))].slice(0, COLORS.length);
    const xs = batches.map((_, i) => i + 1);
    const plot = new uPlot(
      {
        width: Math.max(el.clientWidth, 400),
        height: 220,
        scales: { x: { time: false } },
        axes: [{ label: 'step', incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000] }, {}],
        series: [
          { label: 'step' },
          { label: 'reward mean', stroke: '#2563eb', width: 2 },
          { label: 'reward min', stroke: '#93c5fd', dash: [4, 4] },
          { label: 'reward max', stroke: '#93c5fd', dash: [4, 4] },
          { label: 'group std mean', stroke: '#9ca3af' },
          ...metrics.map((m, i) => ({ label: m, stroke: COLORS[i]!, show: false })),
        ],
      },
      [xs, batches.map((b) => b.rewardMean), batches.map((b) => b.rewardMin), batches.map((b) => b.rewardMax), batches.map((b) => b.groupStdMean), ...metrics.map((m) => batches.map((b) => b.metricMeans[m] ?? null))],
      el,
    );
    return () => plot.destroy();
  }, [batches]);
  return <div ref={box} class="chart batchchart" />;
}
