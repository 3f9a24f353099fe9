/**
 * Passwords, e-mail links and two-factor sign-in (issue 15): the bodies of their calls and the
 * messages the settings pages and the login page show.
 */
import * as v from 'valibot'
import { INVITABLE_ROLES } from './account.ts'

/** A new password: at least PASSWORD_MIN_LENGTH characters. */
export const PASSWORD_MIN_LENGTH = 8

/** Messages of the password and two-factor forms; spec wording where the spec has one. */
export const SECURITY_MESSAGES = {
  resetRequested: "You've requested to reset the password",
  resetRequestedHint: 'We sent you a link to set a new password by e-mail.',
  passwordTooShort: `The password needs at least ${PASSWORD_MIN_LENGTH} characters.`,
  passwordsDiffer: 'The passwords do not match.',
  passwordSet: 'Your password is set. You can log in now.',
  linkInvalid: 'This link is invalid or has expired.',
  currentPasswordWrong: 'The current password is wrong.',
  passwordChanged: 'Your password was changed.',
  codeRequired: 'Enter the code of your authenticator app.',
  codeWrong: 'The code is wrong or has expired.',
  mfaEnabled: 'Two-Factor Authentication is enabled',
  mfaDisabled: 'Disabled Two-Factor Authentication',
  mfaDisabledHint: 'Multi-factor authentication has been disabled',
  mfaDisableFailed: 'Unable to disable Two-Factor Authentication',
  inviteSendFailed: 'Unable to send invitation email. Please try again.',
} as const

const NewPasswordSchema = v.pipe(
  v.string(),
  v.minLength(PASSWORD_MIN_LENGTH, SECURITY_MESSAGES.passwordTooShort),
  v.maxLength(1000),
)

/** POST /auth/password/reset: set a password with the token of an invitation or reset e-mail. */
export const PasswordResetSchema = v.strictObject({
  token: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
  password: NewPasswordSchema,
})

/** PUT /auth/password: change the own password. */
export const PasswordChangeSchema = v.strictObject({
  currentPassword: v.pipe(v.string(), v.minLength(1), v.maxLength(1000)),
  newPassword: NewPasswordSchema,
})

/** The first message of a new password's rules, or null when it is fine. */
export function checkNewPassword(password: string, repeated: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) return SECURITY_MESSAGES.passwordTooShort
  if (password !== repeated) return SECURITY_MESSAGES.passwordsDiffer
  return null
}

/** One TOTP authenticator as listed on the profile page. */
export const AuthenticatorSchema = v.object({
  id: v.number(),
  name: v.string(),
  confirmed: v.boolean(),
  createdAt: v.string(),
})
export type Authenticator = v.InferOutput<typeof AuthenticatorSchema>

/** POST /auth/mfa: starts an enrolment. */
export const MfaEnrolSchema = v.strictObject({
  name: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(100))),
})

/** The enrolment ticket: the secret, its otpauth URI and that URI as an SVG QR code. */
export const MfaEnrolmentSchema = v.object({
  authenticator: AuthenticatorSchema,
  secret: v.string(),
  otpauthUri: v.string(),
  qrSvg: v.string(),
})
export type MfaEnrolment = v.InferOutput<typeof MfaEnrolmentSchema>

/** A six-digit code from the authenticator app. */
export const MfaCodeSchema = v.strictObject({
  code: v.pipe(v.string(), v.trim(), v.regex(/^\d{6}$/, SECURITY_MESSAGES.codeWrong)),
})

/** PUT /mgmt/users/{id}: only the changed fields. */
export const TeamUserUpdateSchema = v.strictObject({
  firstName: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(100))),
  lastName: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(100))),
  department: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(100)))),
  role: v.optional(v.picklist(INVITABLE_ROLES)),
})
export type TeamUserUpdate = v.InferOutput<typeof TeamUserUpdateSchema>

/** Error `extras` of a login that needs the authenticator's code (403, not counted as a failure). */
export const MFA_REQUIRED_FLAG = 'mfaRequired'
