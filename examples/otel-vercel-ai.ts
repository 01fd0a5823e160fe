// The Vercel AI SDK with experimental_telemetry into weft: generateText against a loopback OpenAI-compatible model server, its spans and usage in weft's trace tree.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { generateText } from 'ai';
import { op } from '../packages/weft-trace/src/index.js';
import { WeftSpanProcessor } from '../packages/weft-trace/src/otel/index.js';
import { runExample } from './run-example.js';

// The AI SDK records spans with the global tracer provider; WeftSpanProcessor turns them into calls.
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
const provider = new BasicTracerProvider({ spanProcessors: [new WeftSpanProcessor()] });
trace.setGlobalTracerProvider(provider);

// A loopback model server speaking OpenAI's chat completions (no network, no key).
const modelServer = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk: Buffer) => (body += chunk.toString()));
  req.on('end', () => {
    const { model, messages } = JSON.parse(body) as { model: string; messages: { content: string }[] };
    const question = messages.at(-1)?.content ?? '';
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({
      id: 'chatcmpl-local', object: 'chat.completion', created: Math.floor(Date.now() / 1000), model,
      choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: question.includes('2+2') ? '4' : 'I do not know.' } }],
      usage: { prompt_tokens: 14, completion_tokens: 1, total_tokens: 15 },
    }));
  });
});
await new Promise<void>((resolve) => modelServer.listen(0, '127.0.0.1', resolve));
const local = createOpenAICompatible({ name: 'local', baseURL: `http://127.0.0.1:${(modelServer.address() as AddressInfo).port}/v1` });

const answer = op(async function answer(question: string) {
  const { text } = await generateText({
    model: local('tiny-model'),
    system: 'Answer in one word.',
    prompt: question,
    experimental_telemetry: { isEnabled: true, functionId: 'answer' },
  });
  return text;
});

await runExample('otel-vercel-ai', async ({ recorded }) => {
  console.log(`answer: ${await answer('What is 2+2?')}`);
  await provider.forceFlush();
  for (const call of await recorded()) {
    if (!call.op_name.startsWith('ai.')) continue;
    console.log(`${call.op_name}: inputs ${JSON.stringify(call.inputs)} -> output ${JSON.stringify(call.output)}, usage ${JSON.stringify(call.summary?.usage)}`);
  }
});
await provider.shutdown();
modelServer.close();
