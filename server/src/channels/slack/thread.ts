/** How a Slack conversation is named: one per thread. */
/** A chat is a thread: the channel's id and the thread's root `ts`. */
export function slackChat(channel: string, threadTs: string): string {
  return `${channel}:${threadTs}`;
}

/** The channel and thread root of a chat named by `slackChat`. */
export function threadOf(chat: string): { channel: string; threadTs?: string } {
  const at = chat.indexOf(':');
  return at < 0 ? { channel: chat } : { channel: chat.slice(0, at), threadTs: chat.slice(at + 1) };
}
