// TurnQueue: jobs run in the order queued, one per event-loop turn, with their results and errors passed back.
import { describe, expect, it } from 'vitest';
import { TurnQueue } from '../../../src/server/calls/turn-queue.js';

describe('TurnQueue', () => {
  it('runs one job per turn, in order, so other callbacks run between jobs', async () => {
    const queue = new TurnQueue();
    const seen: string[] = [];
    const jobs = [1, 2, 3].map((n) =>
      queue.run(() => {
        seen.push(`job ${n}`);
        // Queued by the job: with one setImmediate per job instead, all three jobs would run in one turn, before it.
        setImmediate(() => seen.push(`after job ${n}`));
        return n;
      }),
    );
    expect(await Promise.all(jobs)).toEqual([1, 2, 3]);
    await new Promise(setImmediate);
    expect(seen).toEqual(['job 1', 'after job 1', 'job 2', 'after job 2', 'job 3', 'after job 3']);
  });

  it('rejects with what a job throws and goes on with the next', async () => {
    const queue = new TurnQueue();
    const failed = queue.run(() => {
      throw new Error('boom');
    });
    const next = queue.run(() => 'ok');
    await expect(failed).rejects.toThrow('boom');
    await expect(next).resolves.toBe('ok');
    expect(queue.waiting).toBe(0);
  });
});
