import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { AiChatClient, TrainingJob } from '../../client/index.js';
import { errorMessage } from '../ui/errors.js';

/** First poll soon (most jobs finish within a second); then slower, never more than every 5 s. */
const FIRST_DELAY_MS = 400;
const MAX_DELAY_MS = 5000;
const BACKOFF = 1.6;

/**
 * Starts an agent's training job and follows it to the end by polling `GET /agents/{id}/jobs/{job}`
 * gently: the delay grows from 0.4 s to at most 5 s, polling stops when the job is finished, when
 * the host leaves the page, or when another agent's job is followed instead.
 */
export class TrainingJobController implements ReactiveController {
  job: TrainingJob | null = null;
  error = '';
  private timer: ReturnType<typeof setTimeout> | undefined;
  private run = 0;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly client: () => AiChatClient,
    /** Called once when a followed job finishes (the agent's status changed with it). */
    private readonly onFinished: (job: TrainingJob) => void = () => {},
  ) {
    host.addController(this);
  }

  get active(): boolean {
    return this.job?.status === 'queued' || this.job?.status === 'running';
  }

  hostConnected(): void {}

  hostDisconnected(): void {
    this.stop();
  }

  /** Forgets the followed job (another agent was opened). */
  reset(job: TrainingJob | null = null): void {
    this.stop();
    this.job = job;
    this.error = '';
    this.host.requestUpdate();
    if (job && this.active) this.follow(job.agent_id, job.id, ++this.run, FIRST_DELAY_MS);
  }

  async train(agentId: string): Promise<void> {
    this.reset();
    const run = this.run;
    try {
      this.job = (await this.client().agents.train(agentId)).data;
    } catch (error) {
      if (run === this.run) this.error = errorMessage(error);
    }
    this.host.requestUpdate();
    if (run !== this.run || !this.job) return;
    if (this.active) this.follow(agentId, this.job.id, run, FIRST_DELAY_MS);
    else this.onFinished(this.job); // a small agent's job can be done before the 202 is answered
  }

  private follow(agentId: string, jobId: string, run: number, delay: number): void {
    this.timer = setTimeout(async () => {
      try {
        const job = (await this.client().agents.job(agentId, jobId)).data;
        if (run !== this.run) return;
        this.job = job;
        this.error = '';
      } catch (error) {
        if (run !== this.run) return;
        // A failed poll is shown but not fatal: the job runs on the server regardless.
        this.error = errorMessage(error);
      }
      this.host.requestUpdate();
      if (this.active || this.error) this.follow(agentId, jobId, run, Math.min(delay * BACKOFF, MAX_DELAY_MS));
      else if (this.job) this.onFinished(this.job);
    }, delay);
  }

  private stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.run++;
  }
}
