// Every function shape under op(): sync stays sync, async, an SDK-style thenable, generators and streams traced lazily.
import { op } from '../packages/weft-trace/src/index.js';
import { runExample } from './run-example.js';

/** An SDK-style promise with an extra method, like `client.chat.create(...).withResponse()`. */
class APIPromise<T> extends Promise<T> {
  withResponse(): Promise<{ data: T; status: number }> {
    return this.then((data) => ({ data, status: 200 }));
  }
}

const tokenize = op(function tokenize(text: string) {
  return text.split(/\s+/);
});

const embed = op(async function embed(text: string) {
  await new Promise((r) => setTimeout(r, 5));
  return tokenize(text).map((t) => t.length / 10);
});

const complete = op(function complete(prompt: string) {
  return new APIPromise<string>((resolve) => setTimeout(() => resolve(`echo: ${prompt}`), 5));
});

/** A streamed chat completion: text deltas, usage in the last chunk. */
const chat = op(
  async function* chat(prompt: string) {
    const words = `you asked about ${prompt}`.split(' ');
    for (const w of words) {
      await new Promise((r) => setTimeout(r, 2));
      yield { delta: `${w} `, usage: undefined as undefined | { prompt_tokens: number; completion_tokens: number } };
    }
    yield { delta: '', usage: { prompt_tokens: prompt.length, completion_tokens: words.length } };
  },
  {
    streamReducer: (text, chunk) => `${(text as string | undefined) ?? ''}${chunk.delta}`,
    postprocessOutput: (text) => String(text).trim(),
    summarize: () => ({ usage: { 'demo-model': { requests: 1 } } }),
  },
);

const lines = op(function* lines(text: string) {
  for (const line of text.split('\n')) yield line;
});

const download = op(function download(parts: number) {
  let i = 0;
  return new ReadableStream<string>({
    pull(controller) {
      if (i++ < parts) controller.enqueue(`part-${i}`);
      else controller.close();
    },
  }, { highWaterMark: 0 });
});

const pipeline = op(async function pipeline(question: string) {
  const tokens = tokenize(question); // sync: a plain array, not a promise
  const vector = await embed(question);
  const { data, status } = await complete(question).withResponse();
  let answer = '';
  for await (const chunk of chat(question)) answer += chunk.delta;
  const firstTwo: string[] = [];
  for (const line of lines('alpha\nbeta\ngamma\ndelta')) {
    firstTwo.push(line);
    if (firstTwo.length === 2) break; // recorded as cancelled after two chunks
  }
  const parts: string[] = [];
  for await (const p of download(3) as unknown as AsyncIterable<string>) parts.push(p);
  return { tokens: tokens.length, dims: vector.length, data, status, answer: answer.trim(), firstTwo, parts };
});

await runExample('streams', async ({ recorded }) => {
  console.log('tokenize returns', Array.isArray(tokenize('a b')) ? 'an array (sync stays sync)' : 'something else');
  console.log('pipeline result', JSON.stringify(await pipeline('weft streams')));
  const calls = await recorded();
  for (const name of ['chat', 'lines', 'download']) {
    const call = calls.find((c) => c.op_name === name);
    console.log(`recorded ${name}: output=${JSON.stringify(call?.output)} status_counts=${JSON.stringify(call?.summary?.status_counts)}`);
  }
});
