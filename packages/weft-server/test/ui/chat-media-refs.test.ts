// Media references in the chat view's normalizers and the list's files count (issue 51, point 3), without a browser:
// each provider's place for media, holding the reference the SDK left there, becomes a media part carrying it.
import { describe, expect, it } from 'vitest';
import { chatOfCall } from '../../src/ui/chat/chat-of-call.js';
import { partOf } from '../../src/ui/chat/chat-parts.js';
import { filesOf } from '../../src/ui/media/call-files.js';
import { isMediaRef, mediaDigestsIn, weftFilePath } from '../../src/media-ref.js';

const ref = (mime: string, digest: string, size = 1000): Record<string, unknown> => ({ _type: 'weft.media', mime_type: mime, size_bytes: size, digest, where: 'x' });
const dropped = { _type: 'weft.media', mime_type: 'image/png', size_bytes: 9, where: 'y', dropped: 'masked' };
const mediaParts = (chat: ReturnType<typeof chatOfCall>): unknown[] => chat!.messages.flatMap((m) => m.parts.filter((p) => p.kind === 'media'));

describe('media references in chat parts', () => {
  it('reads a reference in each provider\'s media place as a media part carrying it, typed from its MIME type', () => {
    const png = ref('image/png', 'Png1');
    const cases: [unknown, string][] = [
      [{ type: 'image_url', image_url: { url: png } }, 'image'], // OpenAI chat
      [{ type: 'input_image', image_url: png }, 'image'], // OpenAI Responses
      [{ type: 'input_audio', input_audio: { data: ref('audio/wav', 'Wav1'), format: 'wav' } }, 'audio'],
      [{ type: 'file', file: { filename: 'a.pdf', file_data: ref('application/pdf', 'Pdf1') } }, 'file'],
      [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } }, 'image'], // Anthropic
      [{ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: ref('application/pdf', 'Pdf2') } }, 'file'],
      [{ type: 'image', image: png, mediaType: 'image/png' }, 'image'], // the AI SDK
      [png, 'image'], // a part replaced whole
    ];
    for (const [part, media] of cases) {
      const p = partOf(part);
      expect(p).toMatchObject({ kind: 'media', media });
      expect(isMediaRef((p as { ref?: unknown }).ref)).toBe(true);
    }
    expect(partOf({ type: 'image_url', image_url: { url: png } })).toEqual({ kind: 'media', media: 'image', mime: 'image/png', bytes: 1000, ref: png });
  });

  it('finds references in Gemini inlineData, Bedrock bytes and OpenAI output audio, and keeps a dropped one\'s reason', () => {
    const gemini = chatOfCall({
      op_name: 'google_genai.models.generateContent',
      inputs: { model: 'gemini-2.5-flash', contents: [{ role: 'user', parts: [{ text: 'what?' }, { inlineData: { mimeType: 'image/jpeg', data: ref('image/jpeg', 'Jpg1') } }] }] },
      output: { candidates: [{ content: { role: 'model', parts: [{ inlineData: { mimeType: 'image/png', data: dropped } }] }, finishReason: 'STOP' }] },
    });
    expect(mediaParts(gemini)).toEqual([
      expect.objectContaining({ media: 'image', ref: expect.objectContaining({ digest: 'Jpg1' }) }),
      expect.objectContaining({ media: 'image', ref: expect.objectContaining({ dropped: 'masked' }) }),
    ]);
    const bedrock = chatOfCall({
      op_name: 'bedrock.converse',
      inputs: { modelId: 'amazon.nova-lite-v1:0', messages: [{ role: 'user', content: [{ image: { format: 'png', source: { bytes: ref('image/png', 'Png2') } } }] }] },
      output: { output: { message: { role: 'assistant', content: [{ text: 'a chart' }] } }, stopReason: 'end_turn' },
    });
    expect(mediaParts(bedrock)).toEqual([expect.objectContaining({ ref: expect.objectContaining({ digest: 'Png2' }) })]);
    const speech = chatOfCall({
      op_name: 'openai.chat.completions.create',
      inputs: { model: 'gpt-4o-audio-preview', messages: [{ role: 'user', content: 'say hi' }] },
      output: { choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: null, audio: { data: ref('audio/wav', 'Wav2'), transcript: 'hi' } } }] },
    });
    expect(mediaParts(speech)).toEqual([expect.objectContaining({ media: 'audio', ref: expect.objectContaining({ digest: 'Wav2' }) })]);
  });
});

describe('a call\'s files, counted apart', () => {
  it('counts distinct stored files of inputs and output with their bytes, and dropped references', () => {
    const call = { inputs: { a: ref('image/png', 'D1', 100), b: [ref('image/png', 'D1', 100), dropped] }, output: { c: { d: ref('audio/wav', 'D2', 50) } } };
    expect(filesOf(call)).toEqual({ count: 2, bytes: 150, dropped: 1 });
    expect(filesOf({ inputs: { text: 'weft.media' }, output: null })).toEqual({ count: 0, bytes: 0, dropped: 0 });
    expect(mediaDigestsIn(call)).toEqual(['D1', 'D2']);
  });

  it('builds the file route\'s path with the project, digest and type encoded', () => {
    expect(weftFilePath('acme/demo', 'AbC', 'image/png')).toBe('/weft/files/acme/demo/AbC?type=image%2Fpng');
    expect(weftFilePath('a b/c', 'X')).toBe('/weft/files/a%20b/c/X');
  });
});
