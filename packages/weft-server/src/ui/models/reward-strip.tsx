/**
 * A group's reward distribution: one dot per trajectory on a line from the batch's lowest to highest reward, the
 * group mean as a tick.
 * @module
 */

const W = 220;
const H = 18;

export function RewardStrip({ rewards, min, max }: { rewards: number[]; min: number; max: number }) {
  const span = max - min || 1;
  const x = (r: number): number => 6 + ((r - min) / span) * (W - 12);
  const mean = rewards.reduce((a, b) => a + b, 0) / rewards.length;
  return (
    <svg class="rewardstrip" width={W} height={H} role="img" aria-label={`rewards ${rewards.join(', ')}`}>
      <line x1={6} x2={W - 6} y1={H / 2} y2={H / 2} stroke="#e5e7eb" />
      <line x1={x(mean)} x2={x(mean)} y1={2} y2={H - 2} stroke="#111827" />
      {rewards.map((r, i) => <circle cx={x(r)} cy={H / 2 + ((i % 3) - 1) * 3} r={3.5} fill="#2563eb" fill-opacity={0.6}><title>{r}</title></circle>)}
    </svg>
  );
}
