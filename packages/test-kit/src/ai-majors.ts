/**
 * Test helper: the `ai` majors to test here (6, and 7 where this Node.js meets its engines), each with the
 * `@ai-sdk/openai` major made for it, typed as the 6 the tests are written against.
 * @module
 */
import { createOpenAI } from '@ai-sdk/openai';
import * as ai from 'ai';
import { majorsOf, type SdkMajor } from './sdk-majors.js';

/** An `ai` major with its `createOpenAI`. */
export interface AiMajor {
  ai: typeof ai;
  createOpenAI: typeof createOpenAI;
}

/** Loads the installed `ai` majors this Node.js runs (`ai` 6 always). */
export function aiMajors(): Promise<SdkMajor<AiMajor>[]> {
  return majorsOf<AiMajor>('ai', {
    ai: () => Promise.resolve({ ai, createOpenAI }),
    'ai-v7': async () => ({
      ai: (await import('ai-v7')) as unknown as typeof ai,
      createOpenAI: (await import('ai-sdk-openai-v4')).createOpenAI as unknown as typeof createOpenAI,
    }),
  });
}
