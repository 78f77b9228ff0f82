import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { AiChatClient, ChannelPlatform, ChannelTestMessage, ChannelTestRequest } from '../../client/index.js';
import { errorMessage } from '../ui/errors.js';

/** First look soon (the worker sends at once); then slower, never more than every 4 s, and not forever. */
const FIRST_DELAY_MS = 300;
const MAX_DELAY_MS = 4000;
const BACKOFF = 1.6;
const MAX_LOOKS = 30;

export interface FollowedTest {
  platform: ChannelPlatform;
  message: ChannelTestMessage | null;
  /** The service's refusal of the send, or a failed look. */
  error: string;
}

/**
 * Sends a channel's test message (it goes through the service's outbox) and follows it until the
 * platform took or refused it, by polling `GET …/test/{id}` with a growing delay. One test at a
 * time: a new one, a reset or the host leaving the page stops following the last.
 */
export class ChannelTestController implements ReactiveController {
  test: FollowedTest | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private run = 0;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly client: () => AiChatClient,
    /** Called once when a followed message was taken or refused (the channel's health changed with it). */
    private readonly onFinished: () => void = () => {},
  ) {
    host.addController(this);
  }

  /** True while the message is queued or being sent. */
  get active(): boolean {
    return this.test?.message?.status === 'pending' || this.test?.message?.status === 'sending';
  }

  hostConnected(): void {}

  hostDisconnected(): void {
    this.stop();
  }

  reset(): void {
    this.stop();
    this.test = null;
    this.host.requestUpdate();
  }

  /** Sends; resolves once the service queued it (or refused it), not when the platform answered. */
  async send(botId: string, platform: ChannelPlatform, body: ChannelTestRequest): Promise<void> {
    this.stop();
    const run = this.run;
    this.test = { platform, message: null, error: '' };
    this.host.requestUpdate();
    try {
      const message = (await this.client().channels.sendTest(botId, platform, body)).data;
      if (run !== this.run) return;
      this.test = { platform, message, error: '' };
    } catch (error) {
      if (run === this.run) this.test = { platform, message: null, error: errorMessage(error) };
    }
    this.host.requestUpdate();
    if (run === this.run && this.active) this.follow(botId, platform, run, FIRST_DELAY_MS, 1);
  }

  private follow(botId: string, platform: ChannelPlatform, run: number, delay: number, looks: number): void {
    const id = this.test!.message!.id;
    this.timer = setTimeout(async () => {
      let error = '';
      let message = this.test?.message ?? null;
      try {
        message = (await this.client().channels.testMessage(botId, platform, id)).data;
      } catch (caught) {
        error = errorMessage(caught); // shown, and looked at again: the message is sent regardless
      }
      if (run !== this.run) return;
      this.test = { platform, message, error };
      this.host.requestUpdate();
      if ((this.active || error) && looks < MAX_LOOKS) this.follow(botId, platform, run, Math.min(delay * BACKOFF, MAX_DELAY_MS), looks + 1);
      else if (!this.active) this.onFinished();
    }, delay);
  }

  private stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.run++;
  }
}
