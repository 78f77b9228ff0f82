/** Canned replies (`/v1/canned-replies`): texts a team inserts in the inbox by shortcut. Part of the v1 wire contract (types.ts). */

/** `POST /v1/canned-replies` (and, every field optional, `PATCH`). */
export interface CannedReplyRequest {
  /** 1–32 of `a-z`, `0-9`, `-`, `_`; unique in the account. An operator types `/` and it to find the reply. */
  shortcut: string;
  /** 1–4,000 characters. */
  text: string;
}

export interface CannedReply extends CannedReplyRequest {
  id: string;
  created_at: string;
  updated_at: string;
}
