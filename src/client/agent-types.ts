/** Agents and their training jobs. Part of the v1 wire contract (types.ts). */
import type { TrainingData } from './bot-types.js';
import type { KnowledgeScope } from './knowledge-types.js';

export interface ModelSettings {
  /** `builtin` (deterministic, grounded) or `openai-compatible` (the configured LLM). */
  provider?: 'builtin' | 'openai-compatible';
  /** Model name passed to the provider. */
  name?: string;
  /** 0–2. */
  temperature?: number;
  /** 1–32,000. */
  max_tokens?: number;
}

export interface AgentExample {
  input: string;
  output: string;
}

export interface CreateAgentRequest {
  /** Required, 1–100 characters. */
  name: string;
  description?: string;
  /** System instructions, up to 8,000 characters. */
  instructions?: string;
  language?: string;
  model?: ModelSettings;
  knowledge?: KnowledgeScope;
  /** Example exchanges; training turns each into an intent. */
  examples?: AgentExample[];
  training?: TrainingData;
}

export type UpdateAgentRequest = Partial<CreateAgentRequest>;

export type AgentStatus = 'draft' | 'training' | 'ready' | 'failed';

export interface Agent {
  id: string;
  name: string;
  description: string;
  instructions: string;
  language: string;
  model: Required<Pick<ModelSettings, 'provider'>> & ModelSettings;
  knowledge: KnowledgeScope;
  examples: AgentExample[];
  training: TrainingData;
  status: AgentStatus;
  latest_job_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface TrainAgentRequest {
  /** Fraction (0–0.5) of examples held out to measure accuracy; default 0.2. */
  holdout?: number;
}

export type TrainingJobStatus = 'queued' | 'running' | 'succeeded' | 'failed';

export interface TrainingMetrics {
  intents: number;
  /** Examples the served model learned from: all of them (held-out ones only measure, then join). */
  examples: number;
  /** Examples held out of a first training run to measure `holdout_accuracy`. */
  holdout_examples: number;
  /** Share of held-out examples classified as their own intent (0–1), or null with none held out. */
  holdout_accuracy: number | null;
  training_ms: number;
}

export interface TrainingJob {
  id: string;
  agent_id: string;
  status: TrainingJobStatus;
  metrics: TrainingMetrics | null;
  error: { code: string; message: string } | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}
