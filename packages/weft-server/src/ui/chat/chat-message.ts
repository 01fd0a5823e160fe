/**
 * The one message shape the chat view draws, whatever the provider: a role and its parts (text, tool calls,
 * tool results, media placeholders, anything else as JSON). Reused for RL trajectories (`messages_and_choices`).
 * @module
 */
import type { MediaRef } from '../../media-ref.js';

/** One piece of a message. */
export type ChatPart =
  | { kind: 'text'; text: string }
  /** The model's reasoning (a summary or thinking block), shown folded. */
  | { kind: 'reasoning'; text: string }
  /** The model refused; `text` says why. */
  | { kind: 'refusal'; text: string }
  /** A tool the model asks to run: `arguments` parsed from JSON text when it was text holding JSON. */
  | { kind: 'tool_call'; id?: string; name: string; arguments: unknown }
  /** What a tool answered (`id`: the call it answers). */
  | { kind: 'tool_result'; id?: string; name?: string; content: unknown }
  /**
   * An image, audio clip or file: drawn from its stored file when the call holds a media reference (`ref`, issue 51),
   * else a labelled placeholder with its size in bytes when known.
   */
  | { kind: 'media'; media: 'image' | 'audio' | 'file'; mime?: string; bytes?: number; url?: string; name?: string; ref?: MediaRef }
  /** A part of a shape not known here, shown as JSON rather than dropped. */
  | { kind: 'json'; value: unknown };

/** One message of a conversation, in order. */
export interface ChatMessage {
  /** `system`, `user`, `assistant`, `tool`, or the role as sent. */
  role: string;
  parts: ChatPart[];
  /** The participant's or tool's name, when the format carries one. */
  name?: string;
  /** True for the model's answer (the call's output), false or absent for what was sent to it. */
  reply?: boolean;
  /** Why the model stopped (`stop`, `tool_calls`, `end_turn`, ...), on replies. */
  finishReason?: string;
}

/** The formats a call's messages are read from. */
export type ChatFormat = 'openai-chat' | 'openai-responses' | 'anthropic' | 'ai-sdk' | 'gemini' | 'bedrock' | 'otel-genai';

/** A call read as a conversation: the request's messages, then the reply's. */
export interface Chat {
  format: ChatFormat;
  messages: ChatMessage[];
}
