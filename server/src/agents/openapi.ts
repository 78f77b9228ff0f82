/** The AI agent endpoints on /v1 in the OpenAPI document (openapi/document.ts spreads them into its paths). */
import { pageOf, ref } from '../openapi/components.ts';
import { operation, PATH_IDS } from '../openapi/operation.ts';
import { intentQualitySchema } from '../bots/schema.ts';
import { pageQuerySchema, trainQuerySchema } from './schema.ts';

const AGENT = PATH_IDS.agent;

export function agentPaths(): Record<string, Record<string, unknown>> {
  return {
    '/v1/agents': {
      post: operation({
        operationId: 'createAgent',
        idempotent: true,
        tag: 'AI Agents',
        summary: 'Create an AI agent',
        body: 'CreateAgentRequest',
        success: [{ status: 201, data: 'Agent', description: 'The created agent (status `draft`).' }],
        errors: [],
      }),
      get: operation({
        operationId: 'listAgents',
        tag: 'AI Agents',
        summary: 'List AI agents (newest first)',
        query: pageQuerySchema,
        success: [{ status: 200, data: pageOf(ref('Agent')), description: 'A page of agents.' }],
        errors: [],
      }),
    },
    '/v1/agents/{agent_id}': {
      get: operation({
        operationId: 'getAgent',
        tag: 'AI Agents',
        summary: 'Retrieve an AI agent',
        pathIds: [AGENT],
        success: [{ status: 200, data: 'Agent', description: 'The agent.' }],
        errors: [],
      }),
      put: operation({
        operationId: 'updateAgent',
        tag: 'AI Agents',
        summary: 'Update an AI agent',
        pathIds: [AGENT],
        body: 'UpdateAgentRequest',
        success: [{ status: 200, data: 'Agent', description: 'The updated agent.' }],
        errors: [],
      }),
      delete: operation({
        operationId: 'deleteAgent',
        tag: 'AI Agents',
        summary: 'Delete an AI agent with its training jobs and conversations',
        description:
          'Its training jobs and every conversation started with it are deleted with it, messages included; its trained model is dropped. The deletion is counted in the usage report. A second delete answers 404.',
        pathIds: [AGENT],
        success: [{ status: 200, data: 'Deletion', description: 'What was deleted.' }],
        errors: [],
      }),
    },
    '/v1/agents/{agent_id}/quality': {
      get: operation({
        operationId: 'getAgentQuality',
        tag: 'AI Agents',
        summary: "The quality of an agent's trained model",
        description: 'As `GET /v1/bots/{bot_id}/quality`, for the model the agent serves. 409 while it has none.',
        pathIds: [AGENT],
        success: [{ status: 200, data: intentQualitySchema, description: 'The quality report.' }],
        errors: ['Conflict'],
      }),
    },
    '/v1/agents/{agent_id}/train': {
      post: operation({
        operationId: 'trainAgent',
        idempotent: true,
        tag: 'AI Agents',
        summary: 'Train an AI agent',
        description:
          'Starts a training job (examples become intents, a held-out share measures accuracy). Answers 202 with the queued job to poll; with `wait=true`, 200 with the finished job. 409 `conflict` while a job is queued or running.',
        pathIds: [AGENT],
        query: trainQuerySchema,
        body: 'TrainAgentRequest',
        bodyOptional: true,
        success: [
          { status: 202, data: 'TrainingJob', description: 'The queued job.' },
          { status: 200, data: 'TrainingJob', description: 'The finished job (`wait=true`).' },
        ],
        errors: ['Conflict', 'ServiceUnavailable'],
      }),
    },
    '/v1/agents/{agent_id}/jobs': {
      get: operation({
        operationId: 'listTrainingJobs',
        tag: 'AI Agents',
        summary: 'List an agent\'s training jobs (newest first)',
        pathIds: [AGENT],
        query: pageQuerySchema,
        success: [{ status: 200, data: pageOf(ref('TrainingJob')), description: 'A page of jobs.' }],
        errors: [],
      }),
    },
    '/v1/agents/{agent_id}/jobs/{job_id}': {
      get: operation({
        operationId: 'getTrainingJob',
        tag: 'AI Agents',
        summary: 'Retrieve a training job',
        pathIds: [AGENT, ['job_id', 'job', 'training job']],
        success: [{ status: 200, data: 'TrainingJob', description: 'The job.' }],
        errors: [],
      }),
    },
  };
}
