// @weft-test: runtime
// Media in provider calls (the real SDKs against loopback fakes): stored once as files of a real server, the stored calls holding MediaRefs where the base64 was.
import Anthropic from '@anthropic-ai/sdk';
import { createOpenAI } from '@ai-sdk/openai';
import { GoogleGenAI } from '@google/genai';
import * as ai from 'ai';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { getExportStats, wrapAISDK, wrapAnthropic, wrapGoogleGenAI, wrapOpenAI } from '../../src/index.js';
import type { CallRecord } from '../../src/schema/calls.js';
import { useFakeGemini } from 'weft-test-kit/fake-gemini.js';
import { useFakeLlm } from 'weft-test-kit/fake-llm.js';
import { FAKE_IMAGE, FAKE_SPEECH } from 'weft-test-kit/fake-llm-openai.js';
import { mediaRefsIn, pdfOf, pngOf, readStoredFile, type StoredMediaRef } from 'weft-test-kit/media-files.js';
import { sha } from 'weft-test-kit/digest.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { one, traced } from 'weft-test-kit/traced-calls.js';

const server = useTestServer();
const fake = useFakeLlm();
const gemini = useFakeGemini();
const PNG = pngOf(300_000, 11);

/** The project of a stored call, and every file its references name read back: each must be the bytes `expected` gives for its place. */
async function expectStored(call: CallRecord, refs: StoredMediaRef[], expected: Record<string, Buffer>): Promise<void> {
  expect(refs.map((r) => r.where).sort()).toEqual(Object.keys(expected).sort());
  for (const ref of refs) {
    const bytes = expected[ref.where]!;
    expect(ref).toMatchObject({ _type: 'weft.media', size_bytes: bytes.byteLength, digest: sha(bytes) });
    const file = await readStoredFile(server().url, call.project_id, ref.digest!);
    expect(file.status).toBe(200);
    expect(file.bytes.equals(bytes)).toBe(true);
  }
}

describe('media in provider calls', () => {
  it('OpenAI vision chat: the same 300 KB PNG in two calls is stored once; the calls hold references, not base64; a URL stays a URL', async () => {
    const openai = wrapOpenAI(new OpenAI({ apiKey: 'sk-test', baseURL: fake().openaiURL, maxRetries: 0 }));
    const dataUrl = `data:image/png;base64,${PNG.toString('base64')}`;
    const ask = (url: string) =>
      openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: [{ type: 'text', text: 'What is in this image?' }, { type: 'image_url', image_url: { url } }] }] });
    const before = getExportStats().files;
    const calls = await traced(server(), 'media-openai-vision', async () => {
      await ask(dataUrl);
      await ask(dataUrl);
      await ask('https://example.com/cat.png');
    });
    const after = getExportStats().files;
    expect(after.sent - before.sent).toBe(1);
    expect(after.deduplicated - before.deduplicated).toBe(1);
    // the provider got the image itself
    expect(JSON.stringify(fake().requests.at(-2)!.body)).toContain(dataUrl.slice(0, 200));
    const chats = calls.filter((c) => c.op_name === 'openai.chat.completions.create');
    expect(chats).toHaveLength(3);
    for (const c of chats.slice(0, 2)) {
      const stored = JSON.stringify(c);
      expect(stored).not.toContain(PNG.toString('base64').slice(0, 100));
      expect(stored.length).toBeLessThan(4000);
      await expectStored(c, mediaRefsIn(c.inputs), { 'messages[0].content[1].image_url.url': PNG });
      expect(mediaRefsIn(c.inputs)[0]!.mime_type).toBe('image/png');
    }
    // the Responses API's input_image carries the same data URL
    const responses = await traced(server(), 'media-openai-responses', () =>
      openai.responses.create({ model: 'gpt-4o-mini', input: [{ role: 'user', content: [{ type: 'input_text', text: 'What is it?' }, { type: 'input_image', image_url: dataUrl, detail: 'auto' }] }] }),
    );
    const r = one(responses, 'openai.responses.create');
    await expectStored(r, mediaRefsIn(r.inputs), { 'input[0].content[1].image_url': PNG });
    expect((chats[2]!.inputs as { messages: { content: { image_url?: { url: string } }[] }[] }).messages[0]!.content[1]!.image_url!.url).toBe('https://example.com/cat.png');
  });

  it('OpenAI audio output: the speech in the answer is a file, the transcript stays text', async () => {
    const openai = wrapOpenAI(new OpenAI({ apiKey: 'sk-test', baseURL: fake().openaiURL, maxRetries: 0 }));
    let got: OpenAI.ChatCompletion | undefined;
    const calls = await traced(server(), 'media-openai-audio', async () => {
      got = await openai.chat.completions.create({ model: 'gpt-4o-audio-preview', modalities: ['text', 'audio'], audio: { voice: 'alloy', format: 'wav' }, messages: [{ role: 'user', content: 'Say hi' }] });
    });
    expect(got!.choices[0]!.message.audio!.data).toBe(FAKE_SPEECH.toString('base64')); // the caller's answer is untouched
    const c = one(calls, 'openai.chat.completions.create');
    const refs = mediaRefsIn(c.output);
    await expectStored(c, refs, { 'choices[0].message.audio.data': FAKE_SPEECH });
    expect(refs[0]!.mime_type).toBe('audio/wav');
    expect((c.output as { choices: { message: { audio: { transcript: string } } }[] }).choices[0]!.message.audio.transcript).toBe(got!.choices[0]!.message.audio!.transcript);
  });

  it('Anthropic: a base64 PDF document is a file, under its media type', async () => {
    const anthropic = wrapAnthropic(new Anthropic({ apiKey: 'sk-ant-test', baseURL: fake().anthropicURL, maxRetries: 0 }));
    const pdf = pdfOf('Quarterly report: all good.');
    const calls = await traced(server(), 'media-anthropic-pdf', () =>
      anthropic.messages.create({
        model: 'claude-haiku-4-5',
        max_tokens: 100,
        messages: [{ role: 'user', content: [{ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: pdf.toString('base64') } }, { type: 'text', text: 'Summarize it.' }] }],
      }),
    );
    const c = one(calls, 'anthropic.messages.create');
    const refs = mediaRefsIn(c.inputs);
    await expectStored(c, refs, { 'messages[0].content[0].source.data': pdf });
    expect(refs[0]!.mime_type).toBe('application/pdf');
    expect((c.inputs as { messages: { content: { source?: { media_type: string } }[] }[] }).messages[0]!.content[0]!.source!.media_type).toBe('application/pdf');
  });

  it('Google GenAI: an inlineData image is a file', async () => {
    const genai = wrapGoogleGenAI(new GoogleGenAI({ apiKey: 'gemini-test-key', httpOptions: { baseUrl: gemini().url } }));
    const image = pngOf(20_000, 12);
    const calls = await traced(server(), 'media-gemini', () =>
      genai.models.generateContent({ model: 'gemini-2.5-flash', contents: [{ role: 'user', parts: [{ inlineData: { mimeType: 'image/png', data: image.toString('base64') } }, { text: 'What is it?' }] }] }),
    );
    const c = calls.find((x) => mediaRefsIn(x.inputs).length > 0)!;
    expect(c.op_name).toMatch(/generateContent/);
    const refs = mediaRefsIn(c.inputs);
    expect(refs).toHaveLength(1);
    expect(refs[0]!.where).toMatch(/parts\[0\]\.inlineData\.data$/);
    await expectStored(c, refs, { [refs[0]!.where]: image });
  });

  it('AI SDK: a generated image and generated speech are files', async () => {
    const { generateImage, experimental_generateSpeech: generateSpeech } = wrapAISDK(ai);
    const provider = createOpenAI({ apiKey: 'sk-test', baseURL: fake().openaiURL });
    const calls = await traced(server(), 'media-ai-sdk', async () => {
      const { image } = await generateImage({ model: provider.image('gpt-image-1'), prompt: 'a red square', n: 1 });
      expect(Buffer.from(image.uint8Array).equals(FAKE_IMAGE)).toBe(true);
      await generateSpeech({ model: provider.speech('tts-1'), text: 'hello', outputFormat: 'wav' });
    });
    const img = one(calls, 'ai.generateImage');
    await expectStored(img, mediaRefsIn(img.output), { 'images[0].data': FAKE_IMAGE });
    expect(mediaRefsIn(img.output)[0]!.mime_type).toBe('image/png');
    const speech = one(calls, 'ai.experimental_generateSpeech');
    await expectStored(speech, mediaRefsIn(speech.output), { 'audio.data': FAKE_SPEECH });
  });
});
