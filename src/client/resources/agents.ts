/** `/agents`: LLM-style agents, their training jobs. */
import { segment, type HttpCore } from '../http.js';
import type { ApiResult, RequestOptions } from '../options.js';
import type {
  Agent,
  CreateAgentRequest,
  Deletion,
  IntentQuality,
  Page,
  PageQuery,
  TrainAgentRequest,
  TrainingJob,
  UpdateAgentRequest,
} from '../types.js';

export class AgentsResource {
  constructor(private readonly core: HttpCore) {}

  create(body: CreateAgentRequest, options?: RequestOptions): Promise<ApiResult<Agent>> {
    return this.core.request({ method: 'POST', path: '/agents', body }, options);
  }

  list(query: PageQuery = {}, options?: RequestOptions): Promise<ApiResult<Page<Agent>>> {
    return this.core.request({ method: 'GET', path: '/agents', query: { ...query } }, options);
  }

  get(agentId: string, options?: RequestOptions): Promise<ApiResult<Agent>> {
    return this.core.request({ method: 'GET', path: `/agents/${segment(agentId, 'agentId')}` }, options);
  }

  update(agentId: string, body: UpdateAgentRequest, options?: RequestOptions): Promise<ApiResult<Agent>> {
    return this.core.request({ method: 'PUT', path: `/agents/${segment(agentId, 'agentId')}`, body }, options);
  }

  /** `DELETE /agents/{id}`: the agent goes with its training jobs and every conversation started with it. */
  delete(agentId: string, options?: RequestOptions): Promise<ApiResult<Deletion>> {
    return this.core.request({ method: 'DELETE', path: `/agents/${segment(agentId, 'agentId')}` }, options);
  }

  /** `GET /agents/{id}/quality`: cross-validation of the agent's served model on its own examples. */
  quality(agentId: string, options?: RequestOptions): Promise<ApiResult<IntentQuality>> {
    return this.core.request({ method: 'GET', path: `/agents/${segment(agentId, 'agentId')}/quality` }, options);
  }

  /** `POST /agents/{id}/train` (202): starts a training job; poll it with {@link job}. */
  train(agentId: string, body: TrainAgentRequest = {}, options?: RequestOptions): Promise<ApiResult<TrainingJob>> {
    return this.core.request({ method: 'POST', path: `/agents/${segment(agentId, 'agentId')}/train`, body }, options);
  }

  job(agentId: string, jobId: string, options?: RequestOptions): Promise<ApiResult<TrainingJob>> {
    const path = `/agents/${segment(agentId, 'agentId')}/jobs/${segment(jobId, 'jobId')}`;
    return this.core.request({ method: 'GET', path }, options);
  }

  jobs(agentId: string, query: PageQuery = {}, options?: RequestOptions): Promise<ApiResult<Page<TrainingJob>>> {
    return this.core.request({ method: 'GET', path: `/agents/${segment(agentId, 'agentId')}/jobs`, query: { ...query } }, options);
  }
}
