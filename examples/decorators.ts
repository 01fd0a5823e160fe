// @op on class methods (TS 5 standard decorators): ops named Class.method, `this` kept, private and static methods traced.
import { op } from '../packages/weft-trace/src/index.js';
import { runExample } from './run-example.js';

class Librarian {
  private readonly shelves = new Map<string, string[]>([
    ['weft', ['op() wraps a function', 'flush() sends what is queued']],
    ['sqlite', ['WAL keeps readers and a writer apart']],
  ]);

  constructor(readonly name: string) {}

  @op
  static open(name: string): Librarian {
    return new Librarian(name);
  }

  @op({ callDisplayName: (topic) => `lookup: ${topic}` })
  async lookup(topic: string, limit = 1): Promise<string[]> {
    await new Promise((r) => setTimeout(r, 2));
    return this.#pick(this.shelves.get(topic) ?? [], limit);
  }

  @op
  #pick(notes: string[], limit: number): string[] {
    return notes.slice(0, limit);
  }
}

await runExample('decorators', async ({ recorded }) => {
  const librarian = Librarian.open('ada');
  console.log('lookup weft ->', await librarian.lookup('weft', 2));
  console.log('lookup sqlite ->', await librarian.lookup('sqlite'));
  for (const c of await recorded()) console.log(`recorded ${c.op_name} inputs=${JSON.stringify(c.inputs)}`);
});
