/**
 * Types of attachments: files a visitor or an operator sends with a message, and a
 * bot's limits on them. Re-exported by `types.ts`.
 */

/**
 * What an attachment can be, judged by its bytes (never by its name): raster images, PDF, plain
 * text. The one list the service, the widget and the dashboard all read.
 */
export const ATTACHMENT_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf', 'text/plain'] as const;
export type AttachmentType = (typeof ATTACHMENT_TYPES)[number];

/** The raster images among them: the only files shown inline (they run nothing). */
export const IMAGE_ATTACHMENT_TYPES: readonly AttachmentType[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

/** The most files one message can carry, whatever a bot allows. */
export const MAX_ATTACHMENTS_PER_MESSAGE = 10;

/** A stored file, as a message lists it and an upload answers it. */
export interface Attachment {
  /** `att_…`: name it in a message's `attachments`; read it at `GET /v1/attachments/{id}`. */
  id: string;
  /** The uploader's name for it, cleaned (no path, no control or direction characters, ≤ 200 characters). */
  filename: string;
  content_type: AttachmentType;
  /** Bytes. */
  size: number;
  /** Pixels, for images; `null` otherwise. */
  width: number | null;
  height: number | null;
}

/** A bot's attachment settings (`Bot.attachments`): what visitors may send with a message. */
export interface AttachmentSettings {
  /** Off by default: the widget shows no attach button and the service refuses visitors' uploads. */
  enabled: boolean;
  /** The types allowed (a subset of `AttachmentType`); default all of them. */
  types: AttachmentType[];
  /** The largest file, in bytes; default 5 MiB, at most the service's own limit (10 MiB by default). */
  max_file_bytes: number;
  /** The most files one message carries; default 3, at most 10. */
  max_files: number;
}

/** `POST /v1/attachments` query: the file itself is the raw request body. */
export interface UploadAttachmentQuery {
  /** The bot whose conversation it is for (its limits apply). One of `bot_id` or `conversation_id`. */
  bot_id?: string;
  /** An existing conversation (an operator's reply); its bot is used. */
  conversation_id?: string;
  /** The visitor who uploads it and alone may send and read it (the token proxy sets it). */
  user_id?: string;
  /** The file's name as the visitor knows it. */
  filename?: string;
}
