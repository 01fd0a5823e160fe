/**
 * The model page's client of the training reads (weft serve extensions under `/v1/preview`, Bearer auth): the
 * models, a model's stored trajectory groups, its training jobs.
 * @module
 */
import { apiKey, NeedsKeyError } from '../api';

/** A trajectory as logged (the interface's Trajectory; the message shapes are OpenAI's chat ones). */
export interface Trajectory {
  reward: number;
  messages_and_choices?: unknown[];
  additional_histories?: { messages_and_choices?: unknown[] }[];
  tools?: unknown[] | null;
  metrics?: Record<string, unknown>;
  logs?: unknown[];
  metadata?: Record<string, unknown>;
  start_time?: string;
}

/** A stored group: its id, split, the time of the log request that stored it (its step), its trajectories. */
export interface StoredGroup {
  group_id: string;
  split: 'train' | 'val' | 'test';
  logged_at: string;
  trajectories: Trajectory[];
}

export interface ModelInfo {
  model_id: string;
  trajectory_count: number;
  group_count: number;
  first_logged_at: string;
  last_logged_at: string;
}

export interface TrainingJob {
  id: string;
  status: string;
  status_detail: string;
  created_at: string;
  group_count: number;
  trajectory_count: number;
}

async function post<T>(path: string, body: unknown, signal?: AbortSignal): Promise<T> {
  const key = apiKey();
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (key !== null) headers['authorization'] = `Bearer ${key}`;
  const res = await fetch(path, { method: 'POST', headers, body: JSON.stringify(body), credentials: 'omit', ...(signal ? { signal } : {}) });
  if (res.status === 401) throw new NeedsKeyError('this server requires an API key');
  if (!res.ok) throw new Error(`${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

export async function listModels(signal?: AbortSignal): Promise<ModelInfo[]> {
  return (await post<{ models: ModelInfo[] }>('/v1/preview/models/query', {}, signal)).models;
}

export async function modelGroups(modelId: string, signal?: AbortSignal): Promise<StoredGroup[]> {
  return (await post<{ groups: StoredGroup[] }>(`/v1/preview/models/${encodeURIComponent(modelId)}/trajectories/query`, {}, signal)).groups;
}

export async function modelJobs(modelId: string, signal?: AbortSignal): Promise<TrainingJob[]> {
  return (await post<{ jobs: TrainingJob[] }>('/v1/preview/training-jobs/query', { model_id: modelId }, signal)).jobs;
}
