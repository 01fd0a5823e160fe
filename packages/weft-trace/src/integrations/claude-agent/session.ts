/**
 * One Claude Agent SDK session as a tree of weft calls, built from the messages `query()` yields: assistant turns as
 * model calls, tool uses as calls, subagents under the tool use that started them.
 * @module
 */
import type { ActiveCall } from '../../instrument/active-call.js';
import type { TraceContext } from '../../instrument/context.js';
import { startUnder } from '../start-recorded.js';
import { foldMessageEvent } from '../anthropic.js';
import { resultText, toolError, toolOp, turnOp, type TurnState } from './ops.js';

type Obj = Record<string, unknown>;

/** An assistant turn: one model request of the CLI, known by its message id. */
interface Turn extends TurnState {
  active: ActiveCall | undefined;
  /** Assembled from stream events (exact usage and stop reason), or else from the assistant messages. */
  streamed: boolean;
  thread: Thread;
}

/** A tool use, known by its `tool_use_id`, until its result (and the subagent it started, if any) has come. */
interface Tool {
  active: ActiveCall | undefined;
  /** The result, once it has come: the tool's output, or its error. */
  result?: { output: unknown } | { error: Error };
  /** Set by `permission_denied`: the SDK refused the tool use. */
  denied?: boolean;
  /** Set while a subagent (a task) it started runs: the call ends when the task does. */
  task?: boolean;
}

/** The main conversation (`parent_tool_use_id` null) or a subagent's (the id of the tool use that started it). */
interface Thread {
  parent: TraceContext;
  /** When its last message came: the start of the next turn's request. */
  sinceMs: number;
  /** Messages since its last turn (the prompt, tool results): the next turn's input. */
  pending: unknown[];
  /** Its turn whose call has not ended (ended when another message of the thread comes, or the stream's events say). */
  open: Turn | undefined;
  name: string | undefined;
}

const obj = (v: unknown): Obj => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});

/** The calls of one session below its own call (`root`), fed every message `query()` yields. */
export class AgentSession {
  private readonly threads = new Map<string, Thread>();
  private readonly turns = new Map<string, Turn>();
  private readonly tools = new Map<string, Tool>();
  /** The `result` messages, newest last. */
  readonly results: Obj[] = [];
  init: Obj | undefined;

  constructor(
    private readonly root: ActiveCall,
    private readonly model: unknown,
  ) {}

  /** A user message the caller sent (streaming input, or the prompt): the next main turn's input. */
  prompt(message: unknown): void {
    const t = this.thread(null);
    t.pending.push(message);
    t.sinceMs = Date.now();
  }

  /** Reads one message the SDK yields. */
  observe(m: Obj): void {
    switch (m['type']) {
      case 'stream_event':
        return this.streamEvent(m);
      case 'assistant':
        return this.assistant(m);
      case 'user':
        return this.user(m);
      case 'system':
        return this.system(m);
      case 'result':
        this.closeTurn(this.thread(null));
        this.results.push(m);
        return;
    }
  }

  private thread(id: unknown): Thread {
    const key = typeof id === 'string' ? id : '';
    let t = this.threads.get(key);
    if (t === undefined) {
      const tool = key === '' ? undefined : this.tools.get(key);
      t = { parent: tool?.active?.ctx ?? this.root.ctx, sinceMs: Date.now(), pending: [], open: undefined, name: key === '' ? undefined : 'subagent turn' };
      this.threads.set(key, t);
    }
    return t;
  }

  /** The turn of message `id`, its call started now (at the thread's last message) if it is new. */
  private turn(id: string, thread: Thread, streamed: boolean): Turn {
    let turn = this.turns.get(id);
    if (turn !== undefined) return turn;
    if (thread.open !== undefined) this.closeTurn(thread);
    const state: Turn = { message: { id, role: 'assistant', content: [] }, active: undefined, streamed, thread };
    const inputs = { model: this.model, messages: thread.pending.splice(0) };
    state.active = startUnder(turnOp(this.model, thread.name, state), [inputs], thread.parent, thread.sinceMs);
    this.turns.set(id, state);
    thread.open = state;
    return state;
  }

  private streamEvent(m: Obj): void {
    const event = obj(m['event']);
    const thread = this.thread(m['parent_tool_use_id']);
    const id = event['type'] === 'message_start' ? obj(event['message'])['id'] : m['api_message_id'];
    if (typeof id !== 'string') return;
    const turn = this.turn(id, thread, true);
    if (!turn.streamed) return;
    if (typeof m['ttft_ms'] === 'number') turn.ttftMs = m['ttft_ms'];
    turn.message = foldMessageEvent(turn.message, event) as Obj;
    if (event['type'] === 'message_stop') this.closeTurn(thread);
  }

  private assistant(m: Obj): void {
    const message = obj(m['message']);
    const thread = this.thread(m['parent_tool_use_id']);
    const id = typeof message['id'] === 'string' ? message['id'] : String(m['uuid']);
    const turn = this.turn(id, thread, false);
    if (typeof m['request_id'] === 'string') turn.requestId = m['request_id'];
    const blocks = Array.isArray(message['content']) ? (message['content'] as Obj[]) : [];
    if (!turn.streamed) {
      const { content, ...rest } = message;
      turn.message = { ...rest, content: [...(turn.message['content'] as Obj[]), ...blocks] };
    }
    if (typeof m['error'] === 'string') {
      const e = new Error(`the assistant turn failed: ${m['error']}`);
      e.name = 'ClaudeAgentError';
      turn.active?.fail(e);
      turn.active = undefined;
    }
    for (const b of blocks) if (b['type'] === 'tool_use' && typeof b['id'] === 'string') this.startTool(b, thread);
    thread.sinceMs = Date.now();
  }

  /** The context of tool use `id`, for code its handler runs (started now, in the main thread, when its block has not been read yet). */
  toolContext(id: string, block: Obj): TraceContext | undefined {
    if (!this.tools.has(id)) this.startTool({ ...block, id }, this.thread(null));
    return this.tools.get(id)?.active?.ctx;
  }

  private startTool(block: Obj, thread: Thread): void {
    const id = block['id'] as string;
    if (this.tools.has(id)) return;
    this.tools.set(id, { active: startUnder(toolOp(block), [obj(block['input'])], thread.parent) });
  }

  private user(m: Obj): void {
    const thread = this.thread(m['parent_tool_use_id']);
    this.closeTurn(thread);
    const content = obj(m['message'])['content'];
    const results = Array.isArray(content) ? (content as Obj[]).filter((b) => b['type'] === 'tool_result') : [];
    for (const r of results) this.toolResult(r, results.length === 1 ? m['tool_use_result'] : undefined);
    thread.pending.push(m['message']);
    thread.sinceMs = Date.now();
  }

  private toolResult(block: Obj, structured: unknown): void {
    const tool = this.tools.get(String(block['tool_use_id']));
    if (tool === undefined || tool.result !== undefined) return;
    const output = structured ?? block['content'];
    tool.result = block['is_error'] === true ? { error: toolError(resultText(block['content']), tool.denied === true) } : { output };
    if (!tool.task) this.endTool(tool);
  }

  private system(m: Obj): void {
    const tool = typeof m['tool_use_id'] === 'string' ? this.tools.get(m['tool_use_id']) : undefined;
    switch (m['subtype']) {
      case 'init':
        this.init ??= m;
        return;
      case 'permission_denied':
        if (tool) tool.denied = true;
        return;
      case 'task_started':
        if (tool) tool.task = true;
        return;
      case 'task_notification':
        if (tool === undefined) return;
        tool.task = false;
        this.closeSubagentTurn(m['tool_use_id'] as string);
        if (m['status'] === 'failed' && (tool.result === undefined || 'output' in tool.result)) tool.result = { error: toolError(String(m['summary'] ?? 'subagent failed'), false) };
        if (tool.result !== undefined) this.endTool(tool);
        return;
    }
  }

  /** The subagent's last turn ends when its task does. */
  private closeSubagentTurn(toolUseId: string): void {
    const t = this.threads.get(toolUseId);
    if (t !== undefined) this.closeTurn(t);
  }

  private endTool(tool: Tool): void {
    const active = tool.active;
    tool.active = undefined;
    if (active === undefined || tool.result === undefined) return;
    if ('error' in tool.result) active.fail(tool.result.error);
    else active.succeed(tool.result.output);
  }

  /** Ends the thread's open turn: with the message assembled so far. */
  private closeTurn(thread: Thread): void {
    const turn = thread.open;
    thread.open = undefined;
    if (turn === undefined) return;
    const active = turn.active;
    turn.active = undefined;
    active?.succeed(turn.message);
  }

  /** Ends every call still open (innermost first): turns with what they have, tools with their result or none, the tasks they wait for given up. */
  finish(): void {
    for (const t of this.threads.values()) this.closeTurn(t);
    for (const tool of [...this.tools.values()].reverse()) {
      if (tool.active === undefined) continue;
      tool.result ??= { output: undefined };
      this.endTool(tool);
    }
  }
}
