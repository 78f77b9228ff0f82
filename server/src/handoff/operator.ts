/** Who answers in the inbox, as the handoff's services and the offline messages' name them. */

/** The signed-in dashboard user acting as an operator. */
export interface Operator {
  userId: string;
  accountId: string;
}

/** The name visitors and teammates see: the display name, else the email's local part. */
export function operatorName(user: { email: string; display_name: string | null }): string {
  return user.display_name || user.email.split('@')[0]!;
}
