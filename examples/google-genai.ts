// Gemini through @google/genai, traced with wrapGoogleGenAI: a generateContent, a stream and a chat turn under one op, usage per model and the cost at the root.
// Runs against a loopback fake of the Gemini API (packages/test-kit/src/fake-gemini.ts) unless GEMINI_API_KEY is set.
import { GoogleGenAI } from '@google/genai';
import { init, op, shutdown, wrapGoogleGenAI } from '../packages/weft-trace/src/index.js';
import { startFakeGemini } from '../packages/test-kit/src/fake-gemini.js';
import { connectServer } from './local-server.js';
import { printTraceCost } from './trace-cost.js';

const PROJECT = process.env['WEFT_PROJECT'] ?? 'local/google-genai';
const MODEL = process.env['GEMINI_MODEL'] ?? 'gemini-2.5-flash';

async function main(): Promise<void> {
  const server = await connectServer();
  const apiKey = process.env['GEMINI_API_KEY'];
  const fake = apiKey ? undefined : await startFakeGemini();
  init({ project: PROJECT, baseUrl: server.url, printViewerLink: false });
  const ai = wrapGoogleGenAI(new GoogleGenAI({ apiKey: apiKey ?? 'fake-key', ...(fake ? { httpOptions: { baseUrl: fake.url } } : {}) }));

  const explain = op(async function explain(question: string): Promise<string> {
    const first = await ai.models.generateContent({ model: MODEL, contents: question, config: { thinkingConfig: { includeThoughts: true } } });
    let streamed = '';
    for await (const chunk of await ai.models.generateContentStream({ model: MODEL, contents: `In one line: ${question}` })) streamed += chunk.text ?? '';
    const chat = ai.chats.create({ model: MODEL, config: { systemInstruction: 'Answer in one sentence.' } });
    const turn = await chat.sendMessage({ message: 'And at sunset?' });
    return [first.text, streamed, turn.text].join('\n');
  });

  const [answer, call] = await explain.invoke('Why is the sky blue?');
  console.log(`answer:\n${answer}\n`);
  await shutdown();
  await printTraceCost(server.url, PROJECT, call!);
  await fake?.close();
  await server.close();
}

await main();
