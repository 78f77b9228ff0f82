/**
 * Assignment of conversations to operators (`/v1/assignment`, `/v1/conversations/{id}/assignment`):
 * the account's automatic assignment and each operator's capacity, and assigning, transferring and
 * unassigning by hand. Operators are the account's dashboard users.
 */
import type { OperatorProfile } from './handoff-types.js';

/** An operator as assignment sees them: who, how busy, and whether they take visitors now. */
export interface AssignmentOperator extends OperatorProfile {
  /** Open (`with_person`) conversations automatic assignment gives them at most (0–100, default 5). */
  capacity: number;
  /** The `with_person` conversations they hold now. */
  open: number;
  /** What teammates see (only `online` operators are assigned automatically). */
  presence: 'online' | 'away' | 'offline';
  /** When they were last given a conversation (taken, assigned); null: never. */
  last_assigned_at: string | null;
}

/** `GET /v1/assignment`. */
export interface AssignmentSettings {
  /** Automatic assignment: a conversation that starts waiting goes to the least busy online operator under capacity. Off by default. */
  auto: boolean;
  operators: AssignmentOperator[];
}

/** `PUT /v1/assignment`: what to change. */
export interface AssignmentSettingsInput {
  auto?: boolean;
  /** Capacities to set, by operator id (at most 200 at once). */
  capacities?: { operator_id: string; capacity: number }[];
}

/** `PUT /v1/conversations/{id}/assignment`: the teammate who gets the conversation. */
export interface AssignRequest {
  operator_id: string;
}
