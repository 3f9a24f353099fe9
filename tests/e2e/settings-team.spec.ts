import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { LoginPage } from './pages/LoginPage.ts'

const SHOTS = process.env.SETTINGS_SHOTS_DIR

/** The newest message to `to` in the server's outbox folder, and the path of its link. */
function linkFromOutbox(to: string): string {
  const dir = join(process.env.E2E_DATA_DIR ?? '', 'outbox')
  for (const file of readdirSync(dir).sort().reverse()) {
    const text = readFileSync(join(dir, file), 'utf8')
    if (!new RegExp(`^To: ${to}`, 'mi').test(text)) continue
    const body = text.replace(/=\r?\n/g, '').replace(/=3D/g, '=')
    const link = /https?:\/\/[^\s]+\/set-password\?token=[\w%-]+/.exec(body)?.[0]
    if (link) return new URL(link).pathname + new URL(link).search
  }
  throw new Error(`no e-mail to ${to} in ${dir}`)
}

async function expectNoSeriousAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze()
  const serious = results.violations.filter(
    (v) => v.impact === 'critical' || v.impact === 'serious',
  )
  expect(serious.map((v) => `${v.id}: ${v.help}`)).toEqual([])
}

test('a manager invites a user, who sets the password from the e-mail in the outbox and logs in', async ({
  page,
}) => {
  const login = new LoginPage(page)
  await login.loginAs('manager')
  await page.goto('/settings')
  await expect(page.getByRole('link', { name: /Users/ })).toBeVisible()
  await expect(page.getByRole('link', { name: /Subscription/ })).toBeVisible()
  await expectNoSeriousAxeViolations(page)
  await page.getByRole('link', { name: /Users/ }).click()
  await expect(page.getByRole('heading', { name: 'Team' })).toBeVisible()
  await expect(page.getByRole('cell', { name: 'contributor@dive.example' })).toBeVisible()
  await expectNoSeriousAxeViolations(page)

  await page.getByRole('button', { name: 'New User' }).click()
  const dialog = page.getByRole('dialog', { name: 'New User' })
  await dialog.getByRole('button', { name: 'Invite' }).click()
  await expect(dialog.getByText('E-mail is required')).toBeVisible()
  await dialog.getByLabel('Email').fill('contributor@dive.example')
  await dialog.getByLabel('First name').fill('Iris')
  await dialog.getByLabel('Surname').fill('Invited')
  await dialog.getByRole('button', { name: 'Invite' }).click()
  await expect(dialog.getByText('A user with this e-mail already exists')).toBeVisible()
  await dialog.getByLabel('Email').fill('iris@dive.example')
  await dialog.getByLabel('Role').selectOption('manager')
  await expectNoSeriousAxeViolations(page)
  if (SHOTS) await page.screenshot({ path: join(SHOTS, 'team-new-user.png') })
  await dialog.getByRole('button', { name: 'Invite' }).click()
  await expect(dialog).toBeHidden()
  await expect(page.getByRole('cell', { name: 'iris@dive.example' })).toBeVisible()
  if (SHOTS) await page.screenshot({ path: join(SHOTS, 'team.png') })

  // Typed-name confirmation: Delete stays disabled until the full name is typed exactly.
  await page.getByRole('button', { name: 'Delete Carl Contributor' }).click()
  const confirm = page.getByRole('dialog', { name: 'Delete User' })
  await confirm.getByLabel('Type the name to confirm').fill('carl contributor')
  await expect(confirm.getByRole('button', { name: 'Delete' })).toBeDisabled()
  await confirm.getByRole('button', { name: 'Cancel' }).click()
  // Nobody deletes themselves; admins cannot be edited.
  await expect(page.getByRole('button', { name: 'Delete Mia Manager' })).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Edit Ada Admin' })).toHaveCount(0)

  const path = linkFromOutbox('iris@dive.example')
  await page.goto('/logout')
  await expect(page).toHaveURL(/\/login/, { timeout: 15_000 })

  await page.goto(path)
  await page.getByLabel('New password').fill('iris-password-1')
  await page.getByLabel('Repeat the password').fill('iris-password-1')
  await expectNoSeriousAxeViolations(page)
  await page.getByRole('button', { name: 'Set password' }).click()
  await expect(page.getByText('Your password is set. You can log in now.')).toBeVisible()
  await page.getByRole('link', { name: 'Log in' }).click()
  await login.submit('iris@dive.example', 'iris-password-1')
  await expect(page).toHaveURL(/\/projects/)
  await page.goto('/settings/profile')
  await expect(page.getByLabel('First name')).toHaveValue('Iris')
})

test('a contributor sees no team tile and is refused the team page', async ({ page }) => {
  await new LoginPage(page).loginAs('contributor')
  await page.goto('/settings/overview')
  await expect(page.getByRole('link', { name: /Profile/ })).toBeVisible()
  await expect(page.getByRole('link', { name: /Users/ })).toHaveCount(0)
  await page.goto('/settings/team')
  await expect(page.getByText('What are you doing here?')).toBeVisible()
})

test('a provider admin takes support access, and the organization manager sees it with its 24 h badge and revokes it', async ({
  page,
  request,
}) => {
  const adminLogin = await request.post('/api/auth/login', {
    data: { email: 'admin@dive.example', password: 'dive-demo' },
  })
  const adminToken = ((await adminLogin.json()) as { accessToken: string }).accessToken
  const otherLogin = await request.post('/api/auth/login', {
    data: { email: 'other@dive.example', password: 'dive-demo' },
  })
  const otherToken = ((await otherLogin.json()) as { accessToken: string }).accessToken
  const other = (await (
    await request.get('/api/users', { headers: { authorization: `Bearer ${otherToken}` } })
  ).json()) as { organization: { id: number } }
  // Other specs take access to the same organization (settings-roles): this test's grant is the
  // only active one.
  const otherHeaders = { authorization: `Bearer ${otherToken}` }
  const earlier = (await (
    await request.get('/api/mgmt/access_grants?pageLimit=100', { headers: otherHeaders })
  ).json()) as { results: { id: number; state: string }[] }
  for (const grant of earlier.results.filter((g) => g.state === 'active'))
    await request.delete(`/api/mgmt/access_grants/${grant.id}`, { headers: otherHeaders })
  const granted = await request.post('/api/admin/access_grants', {
    headers: { authorization: `Bearer ${adminToken}` },
    data: { organizationId: other.organization.id, reason: 'support' },
  })
  expect(granted.status()).toBe(201)

  await page.goto('/login')
  await page.getByLabel('Email').fill('other@dive.example')
  await page.getByLabel('Password').fill('dive-demo')
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page).toHaveURL(/\/projects/)
  await page.goto('/settings/team')
  const table = page.getByRole('table', { name: 'Support access' })
  const adminRows = table.getByRole('row', { name: /Ada Admin/ })
  const row = adminRows.filter({ hasText: 'Active' })
  await expect(row).toHaveCount(1)
  const revokedBefore = await adminRows.filter({ hasText: 'Revoked' }).count()
  await expect(row.getByText('New')).toBeVisible()
  await expect(row).toContainText('Support')
  await expect(row).toContainText('Active')
  await expectNoSeriousAxeViolations(page)
  if (SHOTS) await page.screenshot({ path: join(SHOTS, 'team-support-access.png'), fullPage: true })
  await row.getByRole('button', { name: 'Revoke access of Ada Admin' }).focus()
  await page.keyboard.press('Enter')
  await expect(row).toHaveCount(0)
  await expect(adminRows.filter({ hasText: 'Revoked' })).toHaveCount(revokedBefore + 1)
  await expect(table.getByRole('button', { name: /Revoke/ })).toHaveCount(0)
})

test('a manager reads the subscription; a contributor is refused it', async ({ page }) => {
  const login = new LoginPage(page)
  await login.loginAs('manager')
  await page.getByRole('button', { name: /Mia Manager/ }).click()
  await page.getByRole('menuitem', { name: 'Subscription' }).click()
  await expect(page).toHaveURL(/\/settings\/subscription$/)
  await expect(page.getByRole('heading', { name: 'Subscription', level: 1 })).toBeVisible()
  await expect(page.getByText('Engineering')).toBeVisible()
  await expect(page.getByText('Maximum cores per simulation')).toBeVisible()
  await expect(page.getByText('Core hours left')).toBeVisible()
  await expectNoSeriousAxeViolations(page)
  if (SHOTS) await page.screenshot({ path: join(SHOTS, 'subscription.png'), fullPage: true })
  await page.evaluate(() => localStorage.clear())
  await login.loginAs('contributor')
  await page.goto('/settings/subscription')
  await expect(page.getByText('What are you doing here?')).toBeVisible()
})
