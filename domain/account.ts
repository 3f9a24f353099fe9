/**
 * Account entities, roles and the profile and team rules (spec/account.md §3–§6). Budget and credits
 * live in accountBudget.ts, access grants in accountAccess.ts, VMs and storage in accountVm.ts.
 */
import * as v from 'valibot'
import { TEST_TOKEN_TTL_S } from './constants.ts'
import { issue, type Issue } from './validation.ts'

/** Roles of spec/account.md §6. */
export const ROLES = ['contributor', 'manager', 'admin', 'support'] as const
export type Role = (typeof ROLES)[number]

export const ROLE_LABELS: Record<Role, string> = {
  contributor: 'Contributor',
  manager: 'Admin',
  admin: 'provider admin',
  support: 'provider support',
}

/** The eight permissions of spec/account.md §6. */
export const PERMISSIONS = [
  'CREDITS_VIEW_SEQUENCE_USERS',
  'USERS_VIEW',
  'USERS_EDIT',
  'USERS_ADD',
  'SUBSCRIPTION_VIEW',
  'PROJECTS_VIEW_ALL',
  'OVERVIEW_ADMIN_MESSAGE',
  'ACCESS_GRANT_SELECTION',
] as const
export type Permission = (typeof PERMISSIONS)[number]

const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  contributor: [],
  manager: PERMISSIONS.filter((p) => p !== 'ACCESS_GRANT_SELECTION'),
  admin: PERMISSIONS,
  support: PERMISSIONS,
}

/** What a role may do; the server checks it and the UI hides what it may not. */
export function permissionsForRole(role: Role): readonly Permission[] {
  return ROLE_PERMISSIONS[role]
}

export function hasPermission(role: Role, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].includes(permission)
}

/** Default role of a new user. */
export const DEFAULT_NEW_USER_ROLE: Role = 'contributor'

export const FEATURES = [
  'cpu',
  'upload_preprocessing',
  'no_storage_limit_enforcement',
  'vmHours',
  'pontoon',
] as const
export type Feature = (typeof FEATURES)[number]

export const SUBSCRIPTION_KINDS = [
  'basic',
  'engineering',
  'performance',
  'on_demand',
  'trial',
  'workshop',
  'internal',
  'free',
] as const
export type SubscriptionKind = (typeof SUBSCRIPTION_KINDS)[number]

/** How the subscription page names each kind. */
export const SUBSCRIPTION_KIND_LABELS: Record<SubscriptionKind, string> = {
  basic: 'Basic',
  engineering: 'Engineering',
  performance: 'Performance',
  on_demand: 'On demand',
  trial: 'Trial',
  workshop: 'Workshop',
  internal: 'Internal',
  free: 'Free',
}

/** How the subscription page names each organization feature. */
export const FEATURE_LABELS: Record<Feature, string> = {
  cpu: 'CPU solver choice',
  upload_preprocessing: 'Upload of preprocessed setups',
  no_storage_limit_enforcement: 'No storage limit enforcement',
  vmHours: 'Virtual machine hours',
  pontoon: 'Pontoon',
}

/**
 * Core hours of a subscription period: the plan's plus the one-off ones, those the runs used since
 * the start, and what is left (never below zero).
 */
export function subscriptionCoreHours(
  subscription: Pick<Subscription, 'coreHours' | 'oneOffCoreHours'>,
  usedHours: number,
): { total: number; used: number; left: number } {
  const total = subscription.coreHours + subscription.oneOffCoreHours
  return { total, used: usedHours, left: Math.max(0, total - usedHours) }
}

/** Avatars 0–9. */
export const AVATARS = [
  'dolphin',
  'frog',
  'jellyfish',
  'nautilus',
  'nemo',
  'octopus',
  'pelican',
  'shark',
  'turtle',
  'whale',
] as const

export const SubscriptionSchema = v.object({
  kind: v.picklist(SUBSCRIPTION_KINDS),
  startDate: v.string(),
  endDate: v.string(),
  coreHours: v.number(),
  oneOffCoreHours: v.number(),
  vmHoursPerMonth: v.number(),
  maxCores: v.number(),
  freeInstance: v.boolean(),
})
export type Subscription = v.InferOutput<typeof SubscriptionSchema>

export const OrganizationSchema = v.object({
  id: v.number(),
  name: v.string(),
  credits: v.number(),
  features: v.array(v.picklist(FEATURES)),
  activeSubscription: v.nullable(SubscriptionSchema),
  freeInstanceOccupied: v.boolean(),
  maximumSimulationsExceeded: v.boolean(),
})
export type Organization = v.InferOutput<typeof OrganizationSchema>

export const UserSchema = v.object({
  id: v.number(),
  firstName: v.string(),
  lastName: v.string(),
  fullName: v.string(),
  email: v.string(),
  phoneNumber: v.nullable(v.string()),
  department: v.nullable(v.string()),
  location: v.nullable(v.string()),
  avatarId: v.number(),
  role: v.picklist(ROLES),
  active: v.boolean(),
  organization: v.object({ id: v.number(), name: v.string() }),
  activeAccessGrantId: v.nullable(v.number()),
  permissions: v.array(v.picklist(PERMISSIONS)),
  createdAt: v.string(),
})
export type User = v.InferOutput<typeof UserSchema>

/** The short form of a user shown as an owner or issuer. */
export const UserRefSchema = v.object({
  id: v.number(),
  fullName: v.string(),
  avatarId: v.number(),
})
export type UserRef = v.InferOutput<typeof UserRefSchema>

export const PHONE_FORMAT_MESSAGE = 'Invalid phone number format'

/** PUT /users: the profile fields a person edits for themselves. */
export const ProfileUpdateSchema = v.strictObject({
  firstName: v.optional(
    v.pipe(v.string(), v.trim(), v.minLength(1, 'First name is required'), v.maxLength(100)),
  ),
  lastName: v.optional(
    v.pipe(v.string(), v.trim(), v.minLength(1, 'Surname is required'), v.maxLength(100)),
  ),
  phoneNumber: v.optional(
    v.nullable(
      v.pipe(v.string(), v.regex(/^(\+\d{1,3}[ -]?)?[\d ()-]{4,20}$|^$/, PHONE_FORMAT_MESSAGE)),
    ),
  ),
  department: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(100)))),
  location: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(100)))),
  avatarId: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(9))),
  /** The access grant to act through (ACCESS_GRANT_SELECTION); null: the own organization. */
  activeAccessGrantId: v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(1)))),
})
export type ProfileUpdate = v.InferOutput<typeof ProfileUpdateSchema>

export const StorageSchema = v.object({ consumed: v.number(), available: v.number() })
export type Storage = v.InferOutput<typeof StorageSchema>

// ── Profile, team and sign-in rules (spec/account.md §3–§5) ──────────────────────────────────

/** Converts valibot issues to rule-engine issues (field = dotted path). */
function issuesFromParse(issues: readonly v.BaseIssue<unknown>[]): Issue[] {
  return issues.map((failure) =>
    issue('error', failure.path?.map((item) => String(item.key)).join('.') ?? '', failure.message),
  )
}

/** The phone format of the profile form: optional country code, then 4–20 digits, spaces, ()-. */
export const PHONE_NUMBER_PATTERN = /^(\+\d{1,3}[ -]?)?[\d ()-]{4,20}$/

/** True for an empty phone number (it is optional) or one in PHONE_NUMBER_PATTERN. */
export function isValidPhoneNumber(phone: string): boolean {
  return phone.trim() === '' || PHONE_NUMBER_PATTERN.test(phone.trim())
}

/** Messages of the profile and new-user forms. */
export const ACCOUNT_MESSAGES = {
  firstNameRequired: 'First name is required',
  surnameRequired: 'Surname is required',
  emailRequired: 'E-mail is required',
  emailInvalid: 'Enter a valid e-mail address',
  emailDuplicate: 'A user with this e-mail already exists',
  projectRequired: 'Please select a project.',
  simulationRequired: 'Please select a simulation.',
  noVmHours: 'No VM hours left.',
} as const

/** The profile form as a whole: first name and surname required, the rest optional. */
export const ProfileFormSchema = v.object({
  firstName: v.pipe(v.string(), v.trim(), v.minLength(1, ACCOUNT_MESSAGES.firstNameRequired)),
  lastName: v.pipe(v.string(), v.trim(), v.minLength(1, ACCOUNT_MESSAGES.surnameRequired)),
  phoneNumber: v.pipe(v.string(), v.check(isValidPhoneNumber, PHONE_FORMAT_MESSAGE)),
  department: v.string(),
  location: v.string(),
})
/** The profile form. */
export type ProfileForm = v.InferInput<typeof ProfileFormSchema>

/** Rules of the profile form: 'First name is required', 'Surname is required', 'Invalid phone number format'. */
export function checkProfile(form: ProfileForm): Issue[] {
  const result = v.safeParse(ProfileFormSchema, form, { abortPipeEarly: true })
  return result.success ? [] : issuesFromParse(result.issues)
}

/** Roles a manager can give a new or edited user. */
export const INVITABLE_ROLES = ['contributor', 'manager'] as const
/** A role a manager can give. */
export type InvitableRole = (typeof INVITABLE_ROLES)[number]

/** POST /mgmt/users: a new team member (role defaults to contributor). */
export const InviteSchema = v.strictObject({
  email: v.pipe(
    v.string(),
    v.trim(),
    v.toLowerCase(),
    v.minLength(1, ACCOUNT_MESSAGES.emailRequired),
    v.email(ACCOUNT_MESSAGES.emailInvalid),
    v.maxLength(254),
  ),
  firstName: v.pipe(
    v.string(),
    v.trim(),
    v.minLength(1, ACCOUNT_MESSAGES.firstNameRequired),
    v.maxLength(100),
  ),
  lastName: v.pipe(
    v.string(),
    v.trim(),
    v.minLength(1, ACCOUNT_MESSAGES.surnameRequired),
    v.maxLength(100),
  ),
  role: v.optional(v.picklist(INVITABLE_ROLES), 'contributor'),
})
/** A new team member. */
export type Invite = v.InferOutput<typeof InviteSchema>

/** New-user rules: required fields, a valid e-mail not already used in the team, role contributor or manager. */
export function checkInvite(
  invite: v.InferInput<typeof InviteSchema>,
  teamEmails: readonly string[],
) {
  const result = v.safeParse(InviteSchema, invite, { abortPipeEarly: true })
  if (!result.success) return issuesFromParse(result.issues)
  const email = result.output.email
  if (teamEmails.some((existing) => existing.trim().toLowerCase() === email))
    return [issue('error', 'email', ACCOUNT_MESSAGES.emailDuplicate)]
  return []
}

/** Who acts and on whom, for the team restrictions. */
interface TeamMember {
  id: number
  role: Role
}

/** Admin users cannot be edited (nor their role changed); editing needs USERS_EDIT. */
export function canEditUser(actor: TeamMember, target: TeamMember): boolean {
  return hasPermission(actor.role, 'USERS_EDIT') && target.role !== 'admin'
}

/** Admin users cannot be deleted, and nobody can delete themselves. */
export function canDeleteUser(actor: TeamMember, target: TeamMember): boolean {
  return canEditUser(actor, target) && actor.id !== target.id
}

/** Placeholder of the delete-user confirmation (type the user's full name). */
export const TYPE_NAME_TO_CONFIRM = 'Type the name to confirm'
/** Placeholder of the delete-project confirmation (enter the project name). */
export const ENTER_NAME_TO_CONFIRM = 'Enter the name to confirm'

/** A typed-name confirmation holds only for an exact match (case and spaces included). */
export function isNameConfirmed(typed: string, expected: string): boolean {
  return expected !== '' && typed === expected
}

/** A test token from local storage: never in production, and only for 3600 s after issue. */
export function isTestTokenUsable(
  mode: 'production' | 'development' | 'test',
  issuedAtMs: number,
  nowMs: number,
): boolean {
  if (mode === 'production') return false
  const ageMs = nowMs - issuedAtMs
  return ageMs >= 0 && ageMs < TEST_TOKEN_TTL_S * 1000
}
