import * as v from 'valibot'

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
