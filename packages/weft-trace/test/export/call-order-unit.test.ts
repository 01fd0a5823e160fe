// CallOrder on its own, property-based: whatever the events, cuts and settle order, no batch holds an end ahead of its start, and no end is held for good.
import fc from 'fast-check';
import { expect, it } from 'vitest';
import type { Entry } from '../../src/export/entry.js';
import { CallOrder } from '../../src/export/call-order.js';

type Step = { t: 'event'; pick: number } | { t: 'cut' } | { t: 'settle'; pick: number; lose: boolean };

const STEP: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.record({ t: fc.constant('event' as const), pick: fc.nat() }), weight: 6 },
  { arbitrary: fc.record({ t: fc.constant('cut' as const) }), weight: 2 },
  { arbitrary: fc.record({ t: fc.constant('settle' as const), pick: fc.nat(), lose: fc.boolean() }), weight: 2 },
);

const event = (id: string, end: boolean): Entry => ({ json: `${end ? 'end' : 'start'} ${id}`, bytes: 1, call: { id, end } });

it('property: an end is cut only with its start or after its start was taken; held ends follow a lost start; none stays held', () => {
  fc.assert(
    fc.property(fc.array(STEP, { maxLength: 300 }), (steps) => {
      const order = new CallOrder();
      let buffer: Entry[] = [];
      const inFlight: Entry[][] = [];
      const taken = new Set<string>(); // calls whose start the "server" took
      const lost = new Set<string>(); // calls whose start was lost (spooled)
      const open: string[] = [];
      let nextId = 0;
      let ends = 0;
      let endsOut = 0;
      const offer = (e: Entry) => {
        buffer.push(e);
        order.offered(e);
      };
      const cut = () => {
        const { batch, behind } = order.cut(buffer);
        buffer = [];
        for (const e of behind) expect(lost.has(e.call!.id), `end of ${e.call!.id} diverted, its start was not lost`).toBe(true);
        endsOut += behind.length;
        batch.forEach((e, i) => {
          if (!e.call?.end) return;
          endsOut++;
          const withStart = batch.slice(0, i).some((s) => s.call?.id === e.call!.id && !s.call.end);
          expect(withStart || taken.has(e.call.id), `end of ${e.call.id} cut ahead of its start`).toBe(true);
        });
        if (batch.length > 0) inFlight.push(batch);
      };
      const settle = (index: number, lose: boolean) => {
        const [batch] = inFlight.splice(index, 1);
        for (const e of batch!) if (e.call && !e.call.end) (lose ? lost : taken).add(e.call.id);
        const released = order.settle(batch!, lose ? batch! : []);
        for (const e of released.send) {
          expect(taken.has(e.call!.id)).toBe(true);
          buffer.push(e); // requeued: offered once already
        }
        for (const e of released.behind) expect(lost.has(e.call!.id)).toBe(true);
        endsOut += released.behind.length;
      };
      for (const step of steps) {
        if (step.t === 'event') {
          if (open.length > 0 && step.pick % 2 === 1) {
            const [id] = open.splice(step.pick % open.length, 1);
            ends++;
            offer(event(id!, true)); // the exporter sends it through memory while holdsStart(), else to the spool once its start was lost
          } else {
            const id = `c${nextId++}`;
            open.push(id);
            offer(event(id, false));
          }
        } else if (step.t === 'cut') cut();
        else if (inFlight.length > 0) settle(step.pick % inFlight.length, step.lose);
      }
      // the server recovers: everything in flight is taken, and cutting goes on until nothing is held
      for (let round = 0; round < 1_000 && (inFlight.length > 0 || buffer.length > 0); round++) {
        cut();
        while (inFlight.length > 0) settle(0, false);
      }
      expect(order.heldCount).toBe(0);
      expect(endsOut).toBe(ends); // each end left exactly once: in a batch, or behind its lost start
    }),
    { numRuns: 500 },
  );
});

/** Call `a` started and cut into a batch (`first`, in flight), then its end cut after it (held). */
function endHeldBehindStart() {
  const order = new CallOrder();
  const start = event('a', false);
  const end = event('a', true);
  order.offered(start);
  const first = order.cut([start]).batch;
  order.offered(end);
  expect(order.cut([end])).toEqual({ batch: [], behind: [] });
  expect(order.heldCount).toBe(1);
  return { order, first, end };
}

it('an end cut after its start\'s batch left is held until that batch settles, then released to be sent', () => {
  const { order, first, end } = endHeldBehindStart();
  expect(order.settle(first, [])).toEqual({ send: [end], behind: [] });
  expect(order.cut([end])).toEqual({ batch: [end], behind: [] }); // the start was taken: it goes now
});

it('an end held behind a lost start follows it (behind), never sent from memory', () => {
  const { order, first, end } = endHeldBehindStart();
  expect(order.settle(first, first)).toEqual({ send: [], behind: [end] });
  expect(order.holdsStart('a')).toBe(false);
});

it('an end cut after its start was lost follows it (behind), however late it comes', () => {
  const order = new CallOrder();
  const start = event('a', false);
  order.offered(start);
  const first = order.cut([start]).batch;
  order.settle(first, first);
  expect(order.holdsStart('a')).toBe(true); // so the exporter routes the end through memory, to be told apart here
  const end = event('a', true);
  order.offered(end);
  expect(order.cut([end])).toEqual({ batch: [], behind: [end] });
  expect(order.holdsStart('a')).toBe(false);
});
