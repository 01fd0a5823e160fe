// TurnQueue: jobs run in the order queued, one per event-loop turn (groupable writes queued back to back share one), with their results and errors passed back.
import { describe, expect, it } from 'vitest';
import { MAX_GROUP_SIZE, TurnQueue } from '../../../src/server/calls/turn-queue.js';

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

  it('runs groupable jobs queued back to back in one turn inside `together`, up to MAX_GROUP_SIZE, a plain job alone', async () => {
    const units: string[][] = [];
    let unit: string[] | undefined;
    const queue = new TurnQueue((jobs) => {
      units.push((unit = []));
      jobs();
      unit = undefined;
    });
    const seen = (name: string) => () => (unit ? unit.push(name) : units.push([`alone ${name}`]), name);
    const quarter = MAX_GROUP_SIZE / 4;
    const names = Array.from({ length: 6 }, (_, i) => `w${i}`);
    const writes = names.map((n) => queue.runGrouped(seen(n), quarter));
    const page = queue.run(seen('page'));
    const big = queue.runGrouped(seen('big'), MAX_GROUP_SIZE + 1);
    const last = queue.runGrouped(seen('w-last'), quarter);
    expect(await Promise.all([...writes, page, big, last])).toEqual([...names, 'page', 'big', 'w-last']);
    expect(units).toEqual([names.slice(0, 4), names.slice(4), ['alone page'], ['alone big'], ['alone w-last']]);
  });

  it('fails only the job of a group that throws; every job of the group when `together` throws', async () => {
    let commitFails = false;
    const queue = new TurnQueue((jobs) => {
      jobs();
      if (commitFails) throw new Error('commit failed');
    });
    const group = [queue.runGrouped(() => 1, 1), queue.runGrouped(() => { throw new Error('bad batch'); }, 1), queue.runGrouped(() => 3, 1)];
    await expect(Promise.allSettled(group)).resolves.toEqual([
      { status: 'fulfilled', value: 1 }, { status: 'rejected', reason: new Error('bad batch') }, { status: 'fulfilled', value: 3 },
    ]);
    commitFails = true;
    const failed = await Promise.allSettled([queue.runGrouped(() => 1, 1), queue.runGrouped(() => 2, 1)]);
    expect(failed.map((r) => r.status === 'rejected' && String(r.reason))).toEqual(['Error: commit failed', 'Error: commit failed']);
  });
});
