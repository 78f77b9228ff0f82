/** JSON Schemas of the dashboard's account endpoints (sign-up, sign-in, password, teammates, invites). */
import type { JsonSchema } from '../http/validate.ts';

/** A pragmatic shape check (one @, a dot in the domain, no spaces); mail delivery is not verified. */
const email: JsonSchema = { type: 'string', minLength: 3, maxLength: 254, pattern: '^\\s*[^\\s@]+@[^\\s@]+\\.[^\\s@]+\\s*$' };
/** NIST SP 800-63B: at least 8 characters, long passphrases allowed; 10 here. No composition rules. */
const newPassword: JsonSchema = { type: 'string', minLength: 10, maxLength: 1024 };
/** Sign-in takes any length up to the cap, so a short old password still gets the usual answer. */
const anyPassword: JsonSchema = { type: 'string', minLength: 1, maxLength: 1024 };
const role: JsonSchema = { type: 'string', enum: ['owner', 'member'] };

export const signUpSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['email', 'password'],
  properties: {
    email,
    password: newPassword,
    /** The token of an invite link (`…/dashboard/#invite=<token>`). */
    invite: { type: 'string', minLength: 1, maxLength: 200 },
    /** Name of the new account under the `open` policy. */
    account_name: { type: 'string', minLength: 1, maxLength: 100 },
  },
};

export const signInSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['email', 'password'],
  properties: { email: { type: 'string', minLength: 1, maxLength: 254 }, password: anyPassword },
};

export const changePasswordSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['current_password', 'new_password'],
  properties: { current_password: anyPassword, new_password: newPassword },
};

export const updateTeammateSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['role'],
  properties: { role },
};

export const createInviteSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    role: { ...role, default: 'member' },
    /** Default 72 hours, at most 30 days. */
    expires_in_hours: { type: 'integer', minimum: 1, maximum: 720 },
  },
};

export interface SignUpInput {
  email: string;
  password: string;
  invite?: string;
  account_name?: string;
}
export interface SignInInput {
  email: string;
  password: string;
}
export interface ChangePasswordInput {
  current_password: string;
  new_password: string;
}
export interface CreateInviteInput {
  role?: 'owner' | 'member';
  expires_in_hours?: number;
}

export function normalizeEmail(value: string): string {
  return value.trim().toLowerCase();
}
