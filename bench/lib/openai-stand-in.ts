// An in-process stand-in of the openai SDK's streamed chat completion, for measuring weft's own part of a wrapped
// stream: `chunks` chat chunks (with the usage chunk weft asks for) `JSON.parse`d by an async generator, no sockets
// and no SSE decoding. `wrapOpenAI` wraps it like a client (it only needs `chat.completions.create`).
import { chatChunks } from '../../packages/test-kit/src/fake-llm-openai.js';

/** The client shape the stand-in offers: `chat.completions.create(body)` resolving to an async iterable of chunks. */
export interface OpenAIStandIn {
  chat: { completions: { create: (body: unknown) => Promise<AsyncIterable<unknown>> } };
}

/** A stand-in client whose every `create` streams the same `chunks` chunks, each parsed anew. */
export function openAIStandIn(chunks: number): OpenAIStandIn {
  const lines = chatChunks({ model: 'gpt-4o-mini', chunks, kind: 'text', cut: false, includeUsage: true }).map((c) => JSON.stringify(c));
  return {
    chat: {
      completions: {
        create: (_body: unknown): Promise<AsyncIterable<unknown>> =>
          Promise.resolve({
            async *[Symbol.asyncIterator]() {
              for (const l of lines) yield JSON.parse(l) as unknown;
            },
          }),
      },
    },
  };
}
