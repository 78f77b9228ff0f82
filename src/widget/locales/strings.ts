/**
 * UI strings of `<ai-chat-widget>`. `en` is complete and is the fallback for every key; the widget
 * picks a table by its `lang` (or the nearest ancestor's), and its `strings` property overrides any
 * key. `{n}` in `rateLimited` is replaced by the seconds left. The other languages' tables are
 * add-ons (`locales/*.ts`, loaded by `stringsLoading` in load-strings.ts): a page in English never
 * downloads them. This module imports nothing, so the add-ons can use it without an import circle.
 */

/**
 * The strings of human handoff (docs/handoff.md). English for these is in the handoff add-on
 * (handoff.ts), which a page loads only for a bot whose handoff is on; the other languages' tables
 * carry them, and `strings` overrides them like any other key.
 */
export interface HandoffStrings {
  /** The action that asks for a person. */
  talkToPerson: string;
  /** The banner while the visitor waits for a person. */
  handoffWaiting: string;
  /** The banner once an operator joined. `{name}`: their display name. */
  handoffJoined: string;
  /** Beside the banner while the operator types. `{name}`: their display name. */
  handoffTyping: string;
  /** The banner once the operator handed the conversation back to the bot. */
  handoffBack: string;
  /** The banner once the operator ended the conversation. */
  handoffClosed: string;
  /** Nobody can be asked for: outside the opening hours. */
  handoffOutsideHours: string;
  /** Nobody can be asked for: no operator is online (or asking failed). */
  handoffNobodyOnline: string;
  /** The button that opens the email form while nobody can answer. */
  leaveMessage: string;
  /** The email form's fields (its buttons say `send` and `cancel`). */
  offlineEmail: string;
  offlineMessage: string;
  /** Said once the form was sent. `{email}`: the address the reply goes to. */
  offlineSent: string;
}

/**
 * The strings of attachments. English for these is in the attachments add-on
 * (attachments.ts), which a page loads only for a bot that takes files; the other languages'
 * tables carry them, as they carry `HandoffStrings`. `{name}`: a file's name; `{max}`: the largest
 * size a file may have ("5 MB"); `{n}`: the most files one message may carry.
 */
export interface AttachmentStrings {
  /** The composer's attach button (a paperclip). */
  attach: string;
  /** The name of the tray of files about to be sent. */
  attachments: string;
  /** The drop target over the panel while files are dragged over it. */
  dropFiles: string;
  /** A file's remove button in the tray. `{name}`. */
  removeFile: string;
  /** The name of a file's upload progress bar. `{name}`. */
  uploading: string;
  /** Why Send waits: a file is still uploading. */
  uploadWait: string;
  /** A file over the size limit, refused. `{name}`, `{max}`. */
  fileTooLarge: string;
  /** A file of a type the chat does not take, refused. `{name}`. */
  fileType: string;
  /** A file over the count limit, refused. `{name}`, `{n}`. */
  tooManyFiles: string;
  /** The service holds too many files not sent yet. */
  tooManyPending: string;
  /** The service takes no files for this chat. */
  filesOff: string;
  /** Any other failed upload. `{name}`. */
  uploadFailed: string;
  /** Before a file's name on the button that downloads it. */
  download: string;
  /** A file that could not be downloaded. `{name}`. */
  downloadFailed: string;
}

/**
 * The strings of the satisfaction survey shown after an operator ended their part. English for
 * these is in the survey's add-on (csat-survey.ts); the other languages' tables carry them, as they
 * carry `HandoffStrings`. Its buttons say `send` and `dismiss`.
 */
export interface CsatStrings {
  /** The survey's question (the legend of the five choices). */
  csatQuestion: string;
  /** The five choices' names, from 1 to 5, separated by `|`. */
  csatRatings: string;
  /** The optional comment field (label and placeholder). */
  csatComment: string;
  /** Said once the rating was sent. */
  csatThanks: string;
}

export interface WidgetStrings extends Partial<HandoffStrings>, Partial<AttachmentStrings>, Partial<CsatStrings> {
  /** Header text when the `title` attribute is not set. */
  title: string;
  openChat: string;
  closeChat: string;
  transcript: string;
  inputLabel: string;
  placeholder: string;
  send: string;
  you: string;
  assistant: string;
  typing: string;
  suggestions: string;
  sources: string;
  /** The Copy button of a code block (and of an answer). */
  copy: string;
  /** Said (and shown) once something is copied. */
  copied: string;
  /** The name of the scrolling region around a table in an answer. */
  table: string;
  retry: string;
  /** Shown under a user message that could not be delivered. */
  notSent: string;
  /** `{n}`: seconds until the queued message is sent. */
  rateLimited: string;
  /** Shown in the status line while the browser is offline. */
  offline: string;
  /** The launcher's label while the panel is open (the header's close button says `closeChat`). */
  hideChat: string;
  /** The counter near the message limit. `{n}`: characters typed; `{max}`: the limit. */
  characterCount: string;
  /** Shown in the status line while the text is over the limit. `{max}`: the limit. */
  tooLong: string;
  errorNetwork: string;
  /** The service did not answer within the widget's `timeout`. */
  errorTimeout: string;
  /** The service answered with a 5xx (or an unreadable error page). */
  errorServer: string;
  errorAuth: string;
  /**
   * The page's chat is set up wrongly (the token URL is missing, refuses this page's origin, or
   * answers something that is not a token): the visitor cannot fix it, the console says how.
   */
  errorSetup: string;
  /** The token endpoint could not be reached at all. */
  errorUnavailable: string;
  errorGeneric: string;
  /** The first assistant bubble when the `welcome-message` attribute is not set. */
  welcome: string;
  /** The button that stops the reply being written (in place of Send). */
  stop: string;
  /** Under a reply the user stopped. */
  stopped: string;
  /** The header's action that clears the conversation (after a confirmation). */
  newConversation: string;
  /** The inline confirmation of `newConversation` (its confirming button says `newConversation`). */
  confirmReset: string;
  cancel: string;
  /** The launcher's unread badge, said politely. `{n}`: replies that arrived while the panel was closed. */
  unread: string;
  /** The teaser bubble's close button. */
  dismiss: string;
  /** The thumbs up and thumbs down under an answer (its Copy button says `copy`, then `copied`). */
  goodAnswer: string;
  badAnswer: string;
  /** The question of the form after a thumbs down. */
  feedbackReason: string;
  /** Its choices, separated by `|`, in this order: incorrect, not helpful, incomplete, other. */
  feedbackReasons: string;
  /** The form's free-text field (label and placeholder); its buttons say `send` and `cancel`. */
  feedbackComment: string;
}

export const en: WidgetStrings = {
  title: 'Chat',
  openChat: 'Open chat',
  closeChat: 'Close chat',
  transcript: 'Conversation',
  inputLabel: 'Message',
  placeholder: 'Type a message…',
  send: 'Send',
  you: 'You',
  assistant: 'Assistant',
  typing: 'Assistant is typing…',
  suggestions: 'Suggested replies',
  sources: 'Sources',
  copy: 'Copy',
  copied: 'Copied',
  table: 'Table',
  retry: 'Retry',
  notSent: 'Not sent.',
  rateLimited: 'Too many messages. Sending in {n} s…',
  offline: 'You are offline. Messages will be sent when the connection is back.',
  hideChat: 'Hide chat',
  characterCount: '{n} / {max} characters',
  tooLong: 'Too long to send. Shorten the message to {max} characters.',
  errorNetwork: 'No connection.',
  errorTimeout: 'The service took too long to answer.',
  errorServer: 'The service is having trouble.',
  errorAuth: 'Your session has expired.',
  errorSetup: 'The chat is not set up correctly on this page.',
  errorUnavailable: 'The chat service cannot be reached.',
  errorGeneric: 'Something went wrong.',
  welcome: 'Hi! How can I help you?',
  stop: 'Stop',
  stopped: 'Stopped',
  newConversation: 'New conversation',
  confirmReset: 'Clear this conversation and start over?',
  cancel: 'Cancel',
  unread: 'New replies: {n}',
  dismiss: 'Dismiss',
  goodAnswer: 'Good answer',
  badAnswer: 'Bad answer',
  feedbackReason: 'What went wrong?',
  feedbackReasons: 'Incorrect|Not helpful|Incomplete|Other',
  feedbackComment: 'Tell us more (optional)',
};


/** The built-in languages, by primary language subtag. English is in every build; the others are add-ons. */
export const LANGUAGES = ['en', 'de', 'fr', 'es', 'ar', 'ja'] as const;
export type Language = (typeof LANGUAGES)[number];

/** The tables at hand: English, and each other language once its add-on has loaded (load-strings.ts). */
export const tables: Partial<Record<string, WidgetStrings>> = { en };

/** `de-AT` → `de`. */
export const primary = (lang: string) => lang.toLowerCase().split('-')[0];

/**
 * The strings for a BCP 47 language tag (`de-AT` falls back to `de`, unknown tags to `en`), with
 * `overrides` applied last. A built-in language whose table has not loaded yet (`loadStrings`)
 * gives English.
 */
export function resolveStrings(lang: string, overrides?: Partial<WidgetStrings>): WidgetStrings {
  return { ...en, ...tables[primary(lang)], ...overrides };
}
