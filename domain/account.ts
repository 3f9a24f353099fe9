import * as v from 'valibot'
import {
  ACCESS_GRANT_DURATION_MS,
  AUTO_SHUTDOWN_AFTER_MS,
  STORAGE_WARNING_FRACTION,
  TEST_TOKEN_TTL_S,
} from './constants.ts'
import type { SimulationState } from './simulationState.ts'
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
})
export type ProfileUpdate = v.InferOutput<typeof ProfileUpdateSchema>

export const StorageSchema = v.object({ consumed: v.number(), available: v.number() })
export type Storage = v.InferOutput<typeof StorageSchema>

// ── Remaining account entities and rules (spec/account.md §3–§5) ──────────────────────────────────

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

/** The budget figures (settings budget page, menu bar). */
export const BudgetSchema = v.object({
  credits: v.number(),
  simulationHours: v.number(),
  vmHours: v.number(),
  activeSubscription: v.nullable(SubscriptionSchema),
  ssoConnection: v.nullable(v.string()),
})
/** The budget figures. */
export type Budget = v.InferOutput<typeof BudgetSchema>

/** Why a support member asks for access. */
export const ACCESS_GRANT_REASONS = ['onboarding', 'workshop', 'support', 'other'] as const
/** States of an access grant. */
export const ACCESS_GRANT_STATES = ['active', 'revoked', 'expired'] as const
/** One access grant state. */
export type AccessGrantState = (typeof ACCESS_GRANT_STATES)[number]

/** Access to another organization for a support member; lasts 24 h, admins can revoke it. */
export const AccessGrantSchema = v.object({
  id: v.number(),
  requesterId: v.number(),
  requester: v.object({ fullName: v.string(), avatarId: v.number() }),
  organization: v.object({ id: v.number(), name: v.string() }),
  state: v.picklist(ACCESS_GRANT_STATES),
  expiry: v.string(),
  reason: v.picklist(ACCESS_GRANT_REASONS),
  createdAt: v.string(),
})
/** An access grant. */
export type AccessGrant = v.InferOutput<typeof AccessGrantSchema>

/** When a grant created at `createdAtMs` ends. */
export function accessGrantExpiryMs(createdAtMs: number): number {
  return createdAtMs + ACCESS_GRANT_DURATION_MS
}

/** A grant's state now: revoked stays revoked; past its expiry it is expired. */
export function accessGrantState(
  grant: { state: AccessGrantState; expiry: string },
  nowMs: number,
): AccessGrantState {
  if (grant.state !== 'active') return grant.state
  return nowMs >= Date.parse(grant.expiry) ? 'expired' : 'active'
}

/** The team badge marks support members who requested access in the last 24 h. */
export function isRecentAccessRequest(createdAtMs: number, nowMs: number): boolean {
  return nowMs - createdAtMs >= 0 && nowMs - createdAtMs < ACCESS_GRANT_DURATION_MS
}

/** Kinds of credit transactions. */
export const CREDIT_TRANSACTION_KINDS = [
  'simulation',
  'credits_bought',
  'credits_bought_one_off',
  'credits_refunded',
  'other',
  'correction',
  'internal',
  'workshop',
] as const
/** One credit transaction kind. */
export type CreditTransactionKind = (typeof CREDIT_TRANSACTION_KINDS)[number]

/** One credit transaction (GET /credits/sequences). */
export const CreditSequenceSchema = v.object({
  id: v.number(),
  kind: v.picklist(CREDIT_TRANSACTION_KINDS),
  updatedAt: v.string(),
  credits: v.number(),
  simulationHours: v.number(),
  simulationName: v.nullable(v.string()),
  note: v.nullable(v.string()),
  issuer: v.nullable(UserRefSchema),
  issuerId: v.nullable(v.number()),
})
/** One credit transaction. */
export type CreditSequence = v.InferOutput<typeof CreditSequenceSchema>

/** One bar of the credit history chart (day granularity). */
export const CreditHistoryEntrySchema = v.object({
  credits: v.number(),
  simulationHours: v.number(),
  date: v.string(),
  sequenceId: v.number(),
})
/** One bar of the credit history chart. */
export type CreditHistoryEntry = v.InferOutput<typeof CreditHistoryEntrySchema>

/** Empty states of the budget page. */
export const BUDGET_EMPTY_MESSAGES = {
  transactions: 'No transactions found. Start some simulations!',
  search: 'Try to adjust your search.',
  chart: 'No data to display in the selected timeframe.',
} as const

/**
 * Start of a credit period: `days` before now, or the subscription start for the billing year
 * (-1; a year back when there is no subscription).
 */
export function creditPeriodStartMs(
  days: number,
  nowMs: number,
  subscriptionStartMs: number | null,
): number {
  if (days === -1) return subscriptionStartMs ?? nowMs - 365 * 24 * 3600_000
  return nowMs - days * 24 * 3600_000
}

/** Organization storage: bytes consumed of the bytes available, and when it was measured. */
export const OrganizationStorageSchema = v.object({
  consumed: v.number(),
  available: v.number(),
  lastUpdated: v.string(),
})
/** Organization storage. */
export type OrganizationStorage = v.InferOutput<typeof OrganizationStorageSchema>

/** Level of the storage bar: error from 100 %, warning from STORAGE_WARNING_FRACTION. */
export function storageLevel(consumed: number, available: number): 'ok' | 'warning' | 'error' {
  if (!(available > 0)) return consumed > 0 ? 'error' : 'ok'
  const fraction = consumed / available
  if (fraction >= 1) return 'error'
  if (fraction >= STORAGE_WARNING_FRACTION) return 'warning'
  return 'ok'
}

/** States of a remote VM. */
export const VM_STATES = ['launching', 'running', 'failed', 'stopping', 'stopped'] as const
/** One VM state. */
export type VmState = (typeof VM_STATES)[number]

/** A remote VM for post-processing one simulation. */
export const VirtualMachineSchema = v.object({
  id: v.number(),
  name: v.string(),
  state: v.picklist(VM_STATES),
  hoursConsumed: v.number(),
  runningSince: v.nullable(v.string()),
  /** Auto shutdown time; null when auto shutdown is off. */
  shutdownTime: v.nullable(v.string()),
  createdAt: v.string(),
  sftpUrl: v.nullable(v.string()),
  websocketUrl: v.nullable(v.string()),
  password: v.nullable(v.string()),
  simulation: v.object({ id: v.number(), name: v.string(), projectName: v.string() }),
})
/** A remote VM. */
export type VirtualMachine = v.InferOutput<typeof VirtualMachineSchema>

/** Texts of the VM button, toasts and dialogs (spec/account.md §4, §8). */
export const VM_MESSAGES = {
  launch: 'Launch VM',
  launching: 'Launching VM...',
  open: 'Open VM',
  stopping: 'Stopping VM...',
  started: 'The Virtual Machine is started!',
  couldNotStart: 'Could not start the VM.',
  tryAgain: 'Please try to start it again',
  autoShutdownEnabled: 'Auto shutdown is enabled',
  toggleFailed: 'Could not toggle auto shutdown!',
  shuttingDown: 'Virtual machine is being shut down.',
  shutdownFailed: 'Could not shut down Virtual Machine!',
  launchingTitle: 'Virtual Machine is launching',
  launchingHint: 'It usually takes a few minutes. You will be notified once it is ready.',
  errorLaunching: 'Error launching VM',
  launchFailure: 'Sorry! Something went wrong. Please submit a ticket.',
  uploadFailed: 'Failed to upload the file. Please try again later.',
} as const

/** What the VM button does: launch, open the VM page, delete the failed VM and relaunch, nothing. */
export type VmButtonAction = 'launch' | 'open' | 'relaunch' | 'none'

/**
 * The VM button: text by VM state (none or stopped: Launch VM; failed: Launch VM, relaunching),
 * disabled when vmHours <= 0, the simulation has not started, or while launching or stopping.
 */
export function vmButton(input: {
  vmState: VmState | null
  vmHours: number
  simulationState: SimulationState
}): { text: string; disabled: boolean; action: VmButtonAction } {
  const { vmState } = input
  const blocked = !(input.vmHours > 0) || input.simulationState === 'not started'
  switch (vmState) {
    case 'launching':
      return { text: VM_MESSAGES.launching, disabled: true, action: 'none' }
    case 'stopping':
      return { text: VM_MESSAGES.stopping, disabled: true, action: 'none' }
    case 'running':
      return { text: VM_MESSAGES.open, disabled: blocked, action: 'open' }
    case 'failed':
      return { text: VM_MESSAGES.launch, disabled: blocked, action: 'relaunch' }
    default:
      return { text: VM_MESSAGES.launch, disabled: blocked, action: 'launch' }
  }
}

/**
 * The toast for a VM state change: started on running; 'Could not start the VM.' on failed or
 * stopped, except after 'stopping' (a shutdown the person asked for). Null when nothing changed.
 */
export function vmStateChangeToast(
  previous: VmState | null,
  next: VmState,
): { kind: 'success' | 'error'; title: string; message?: string } | null {
  if (previous === next) return null
  if (next === 'running') return { kind: 'success', title: VM_MESSAGES.started }
  if (next === 'failed' || (next === 'stopped' && previous !== 'stopping'))
    return { kind: 'error', title: VM_MESSAGES.couldNotStart, message: VM_MESSAGES.tryAgain }
  return null
}

/** The auto shutdown toggle: usable only while running; reads enabled while launching. */
export function autoShutdownToggle(vm: { state: VmState; shutdownTime: string | null }): {
  disabled: boolean
  checked: boolean
  label: string | null
} {
  return {
    disabled: vm.state !== 'running',
    checked: vm.shutdownTime !== null || vm.state === 'launching',
    label: vm.state === 'launching' ? VM_MESSAGES.autoShutdownEnabled : null,
  }
}

/** Turning auto shutdown on sets the shutdown time 24 h from now (ISO). */
export function autoShutdownTime(nowMs: number): string {
  return new Date(nowMs + AUTO_SHUTDOWN_AFTER_MS).toISOString()
}

/** States of the VM window. */
export const VM_WINDOW_STATES = ['loading', 'connected', 'stopping', 'notFound', 'error'] as const
/** States of a VM storage upload. */
export const VM_UPLOAD_STATES = ['waiting', 'uploading', 'success', 'failed'] as const

/** Simulations offered in the Launch modal: none with a VM already, none launching or not started. */
export function launchableSimulations<T extends { id: number; state: SimulationState }>(
  simulations: readonly T[],
  simulationIdsWithVm: readonly number[],
): T[] {
  return simulations.filter(
    (sim) =>
      !simulationIdsWithVm.includes(sim.id) &&
      sim.state !== 'launching' &&
      sim.state !== 'not started',
  )
}

/** Launch VM rules: a project and a simulation are chosen and VM hours remain. */
export function checkVmLaunch(
  choice: { projectId: number | null; simulationId: number | null },
  vmHours: number,
): Issue[] {
  const issues: Issue[] = []
  if (choice.projectId === null)
    issues.push(issue('info', 'projectId', ACCOUNT_MESSAGES.projectRequired))
  if (choice.simulationId === null)
    issues.push(issue('info', 'simulationId', ACCOUNT_MESSAGES.simulationRequired))
  if (!(vmHours > 0)) issues.push(issue('error', 'vmHours', ACCOUNT_MESSAGES.noVmHours))
  return issues
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
