/**
 * The accounts the seed creates on first start. One module so main.ts, the tests and the README
 * agree; it imports nothing, so Playwright specs can import it too.
 */
export const DEMO_PASSWORD = 'dive-demo'

export const DEMO_USERS = {
  admin: { email: 'admin@dive.example', role: 'admin', firstName: 'Ada', lastName: 'Admin' },
  manager: {
    email: 'manager@dive.example',
    role: 'manager',
    firstName: 'Mia',
    lastName: 'Manager',
  },
  contributor: {
    email: 'contributor@dive.example',
    role: 'contributor',
    firstName: 'Carl',
    lastName: 'Contributor',
  },
} as const

/** The only user of the second organization, there to prove that organizations are isolated. */
export const OTHER_ORGANIZATION_USER = {
  email: 'other@dive.example',
  role: 'manager',
  firstName: 'Otto',
  lastName: 'Other',
} as const

/** The login main.ts prints. */
export const DEMO_LOGIN = { email: DEMO_USERS.manager.email, password: DEMO_PASSWORD } as const

export const DEMO_ORGANIZATION_NAME = 'Demo Organization'
export const OTHER_ORGANIZATION_NAME = 'Other Organization'
export const DEMO_PROJECT_NAME = 'Demo project'
export const DEMO_SIMULATION_NAME = 'Dam break'
export const CONTRIBUTOR_PROJECT_NAME = 'Contributor sandbox'
export const CONTRIBUTOR_SIMULATION_NAME = 'First try'
