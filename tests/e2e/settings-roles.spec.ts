import AxeBuilder from '@axe-core/playwright'
import { expect, test, type APIRequestContext, type Page } from '@playwright/test'
import { DEMO_PASSWORD, LoginPage, USERS } from './pages/LoginPage.ts'

/*
 * Issue 15 "Done means": each role signs in and walks every settings page, seeing exactly what
 * spec/account.md §2 and §6 allow; a provider admin acts in another organization through an access
 * grant chosen in the menu bar until the organization revokes it.
 */

async function expectNoSeriousAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze()
  const serious = results.violations.filter(
    (v) => v.impact === 'critical' || v.impact === 'serious',
  )
  expect(serious.map((v) => `${v.id}: ${v.help}`)).toEqual([])
}

/** What each role may see (spec/account.md §6). */
const ROLE_VIEW = {
  contributor: {
    name: 'Carl Contributor',
    heading: 'Manage your account',
    team: false,
    subscription: false,
    grantSelector: false,
    analyticsReport: false,
  },
  manager: {
    name: 'Mia Manager',
    heading: 'Manage your organization and your account',
    team: true,
    subscription: true,
    grantSelector: false,
    analyticsReport: false,
  },
  admin: {
    name: 'Ada Admin',
    heading: 'Manage your organization and your account',
    team: true,
    subscription: true,
    grantSelector: true,
    analyticsReport: true,
  },
} as const

const REFUSED = 'What are you doing here?'

for (const role of ['contributor', 'manager', 'admin'] as const) {
  const view = ROLE_VIEW[role]
  test(`a ${role} walks every settings page and sees what the role allows`, async ({ page }) => {
    await new LoginPage(page).loginAs(role)

    // Menu bar: VM hours for everyone, the organization selector only with ACCESS_GRANT_SELECTION.
    await expect(page.getByText(/VM hours\s+\d+ h \d+ min/)).toBeVisible()
    await expect(page.getByLabel('Organization', { exact: true })).toHaveCount(
      view.grantSelector ? 1 : 0,
    )
    await page.getByRole('button', { name: new RegExp(view.name) }).click()
    const menu = page.getByRole('menu', { name: 'Profile' })
    await expect(menu.getByRole('menuitem', { name: 'Settings' })).toBeVisible()
    await expect(menu.getByRole('menuitem', { name: 'Team' })).toHaveCount(view.team ? 1 : 0)
    await expect(menu.getByRole('menuitem', { name: 'Subscription' })).toHaveCount(
      view.subscription ? 1 : 0,
    )
    await page.keyboard.press('Escape')

    await page.goto('/settings/overview')
    await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible()
    await expect(page.getByText(`${view.heading}, ${view.name.split(' ')[0]}.`)).toBeVisible()
    await expect(page.getByRole('link', { name: /Profile/ })).toBeVisible()
    await expect(page.getByRole('link', { name: /Budget/ })).toBeVisible()
    await expect(page.getByRole('link', { name: /Users/ })).toHaveCount(view.team ? 1 : 0)
    await expect(page.getByRole('link', { name: /Subscription/ })).toHaveCount(
      view.subscription ? 1 : 0,
    )
    await expect(page.getByRole('heading', { name: /Usage analytics/ })).toHaveCount(
      view.analyticsReport ? 1 : 0,
    )
    await expectNoSeriousAxeViolations(page)

    await page.goto('/settings/profile')
    await expect(page.getByRole('heading', { name: 'Profile', level: 1 })).toBeVisible()
    await expect(page.getByLabel('First name')).toHaveValue(view.name.split(' ')[0] ?? '')
    await expect(page.getByRole('checkbox', { name: 'Send usage analytics' })).toBeVisible()
    await expectNoSeriousAxeViolations(page)

    await page.goto('/settings/budget')
    await expect(page.getByRole('heading', { name: 'Budget', level: 1 })).toBeVisible()
    await expect(page.getByText(REFUSED)).toHaveCount(0)
    await expectNoSeriousAxeViolations(page)

    await page.goto('/settings/team')
    if (view.team) {
      await expect(page.getByRole('heading', { name: 'Team', level: 1 })).toBeVisible()
      await expectNoSeriousAxeViolations(page)
    } else await expect(page.getByText(REFUSED)).toBeVisible()

    await page.goto('/settings/subscription')
    if (view.subscription)
      await expect(page.getByRole('heading', { name: 'Subscription', level: 1 })).toBeVisible()
    else await expect(page.getByText(REFUSED)).toBeVisible()

    await page.goto('/settings/nothing-here')
    await expect(page.getByText("It's empty here!")).toBeVisible()
  })
}

async function tokenOf(request: APIRequestContext, email: string): Promise<string> {
  const login = await request.post('/api/auth/login', { data: { email, password: DEMO_PASSWORD } })
  return ((await login.json()) as { accessToken: string }).accessToken
}

test('a provider admin acts in another organization through the menu bar until the grant is revoked', async ({
  page,
  request,
}) => {
  const otherToken = await tokenOf(request, 'other@dive.example')
  const adminToken = await tokenOf(request, USERS.admin)
  const auth = (token: string) => ({ authorization: `Bearer ${token}` })
  const other = (await (await request.get('/api/users', { headers: auth(otherToken) })).json()) as {
    organization: { id: number }
  }
  const granted = await request.post('/api/admin/access_grants', {
    headers: auth(adminToken),
    data: { organizationId: other.organization.id, reason: 'support' },
  })
  expect(granted.status()).toBe(201)
  const grant = (await granted.json()) as { id: number }

  await new LoginPage(page).loginAs('admin')
  const selector = page.getByLabel('Organization', { exact: true })
  await expect(selector).toHaveValue('')
  await expect(selector.getByRole('option', { name: /^Other Organization \(until / })).toHaveCount(
    1,
  )
  await selector.focus()
  await selector.selectOption(String(grant.id))
  await expect(selector).toHaveValue(String(grant.id))
  await expect(page).toHaveURL(/\/projects/)

  // Every page now shows the granted organization: its team, and the profile's grant notice.
  await page.goto('/settings/team')
  await expect(page.getByRole('cell', { name: 'Otto Other', exact: true })).toBeVisible()
  await expect(page.getByRole('cell', { name: 'Mia Manager', exact: true })).toHaveCount(0)
  await page.goto('/settings/profile')
  await expect(page.getByRole('alert')).toContainText('access grant')

  // Back to the own organization with the selector, then in again.
  await selector.selectOption('')
  await expect(page).toHaveURL(/\/projects/)
  await page.goto('/settings/team')
  await expect(page.getByRole('cell', { name: 'Mia Manager', exact: true })).toBeVisible()
  await selector.selectOption(String(grant.id))
  await expect(page).toHaveURL(/\/projects/)

  // The organization revokes the grant: the next load acts in the own organization again.
  const revoked = await request.delete(`/api/mgmt/access_grants/${grant.id}`, {
    headers: auth(otherToken),
  })
  expect(revoked.status()).toBe(200)
  await page.goto('/settings/team')
  await expect(page.getByRole('cell', { name: 'Mia Manager', exact: true })).toBeVisible()
  await expect(selector).toHaveValue('')
  await expect(selector.getByRole('option')).toHaveCount(1)
})
