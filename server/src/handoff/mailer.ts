/**
 * The SMTP transport of the service's emails (nodemailer): the team's waiting-conversation emails
 * (waiting-email.ts) and the answers to offline messages (offline-messages.ts). None unless
 * `AI_CHAT_SMTP_URL` is set. Headers are nodemailer's to write: a CR or LF in a subject or an
 * address never starts another header.
 */
import nodemailer, { type Transporter } from 'nodemailer';

export interface MailOptions {
  /** The SMTP server (`AI_CHAT_SMTP_URL`, e.g. `smtp://user:password@mail.example.com:587`; `smtps://` for TLS from the start). Unset: no emails. */
  smtpUrl?: string;
  /** The sender (`AI_CHAT_SMTP_FROM`). Default `ai-chat-widget <no-reply@localhost>`. */
  from?: string;
}

export const DEFAULT_SENDER = 'ai-chat-widget <no-reply@localhost>';

/** An SMTP server that stalls holds a send this long at most per step. */
const SMTP_TIMEOUT_MS = 10_000;

/** The transport, or null without an SMTP server. */
export function smtpTransport(options: MailOptions): Transporter | null {
  if (!options.smtpUrl) return null;
  return nodemailer.createTransport({ url: options.smtpUrl, connectionTimeout: SMTP_TIMEOUT_MS, greetingTimeout: SMTP_TIMEOUT_MS, socketTimeout: SMTP_TIMEOUT_MS });
}
