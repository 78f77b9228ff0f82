/**
 * Attachments are an add-on (attachments.ts): the attach button, the tray of files on
 * their way, drag and drop, paste, and the files shown in the transcript. What stays in the widget
 * is this: `ChatController` loads the add-on when the bot takes files (its profile says so), when
 * the host says it does (the `attachments` attribute), or here, when a message to show carries
 * files. A bot without attachments loads nothing and costs no request.
 */
import { AddonPart } from './loader.js';
import type { Attachments, AttachmentsChat, AttachmentsHost } from './attachments.js';
import type { TranscriptMessage } from '../core/events.js';
import type { WidgetStrings } from '../locales/strings.js';

export class AttachmentsLoader extends AddonPart<'attachments', Attachments> {
  constructor(host: AttachmentsHost, chat: AttachmentsChat) {
    super('attachments', ({ Attachments }) => new Attachments(host, chat));
  }

  /** A message's files in its bubble: nothing until the add-on is at hand (this loads it). */
  list(message: TranscriptMessage, s: WidgetStrings): unknown {
    return message.attachments?.length ? (this.part ?? void this.load())?.list(message, s) : undefined;
  }
}
