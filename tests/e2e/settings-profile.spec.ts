import { join } from 'node:path'
import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { totpCode } from '../../server/account/totp.ts'
import { LoginPage, USERS, DEMO_PASSWORD } from './pages/LoginPage.ts'

const SHOTS = process.env.SETTINGS_SHOTS_DIR

async function expectNoSeriousAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze()
  const serious = results.violations.filter(
    (v) => v.impact === 'critical' || v.impact === 'serious',
  )
  expect(serious.map((v) => `${v.id}: ${v.help}`)).toEqual([])
}

test('profile: the phone rule, an avatar and a job title are saved', async ({ page }) => {
  await new LoginPage(page).loginAs('manager')
  await page.goto('/settings/profile')
  await page.getByLabel('Phone').fill('call me')
  await page.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText('Invalid phone number format')).toBeVisible()
  await page.getByLabel('Phone').fill('+49 30 1234567')
  await page.getByLabel('Job title').fill('Lead engineer')
  await page.getByRole('radio', { name: 'Octopus' }).check()
  await page.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText('Successfully updated your profile')).toBeVisible()
  await page.reload()
  await expect(page.getByLabel('Job title')).toHaveValue('Lead engineer')
  await expect(page.getByRole('radio', { name: 'Octopus' })).toBeChecked()
  await expectNoSeriousAxeViolations(page)
})

test('a user enrols TOTP and must then give a code at login', async ({ page }) => {
  const login = new LoginPage(page)
  await login.loginAs('contributor')
  await page.goto('/settings/profile')
  await page.getByRole('button', { name: 'Add authenticator' }).click()
  const dialog = page.getByRole('dialog', { name: 'Add authenticator' })
  await expect(
    dialog.getByRole('img', { name: 'QR code of the authenticator secret' }),
  ).toBeVisible()
  await expectNoSeriousAxeViolations(page)
  if (SHOTS) await page.screenshot({ path: join(SHOTS, 'profile-totp.png') })
  const secret = (await dialog.getByTestId('totp-secret').textContent()) ?? ''
  await dialog.getByLabel('Code from the app').fill('000000')
  await dialog.getByRole('button', { name: 'Verify' }).click()
  await expect(dialog.getByText('The code is wrong or has expired.')).toBeVisible()
  await dialog.getByLabel('Code from the app').fill(totpCode(secret, Date.now()))
  await dialog.getByRole('button', { name: 'Verify' }).click()
  await expect(dialog).toBeHidden()
  await expect(page.getByRole('cell', { name: 'Authenticator app', exact: true })).toBeVisible()
  if (SHOTS) await page.screenshot({ path: join(SHOTS, 'profile.png'), fullPage: true })

  await page.goto('/logout')
  await expect(page).toHaveURL(/\/login/, { timeout: 15_000 })
  await login.open()
  await login.submit(USERS.contributor, DEMO_PASSWORD)
  const code = page.getByLabel('Authentication code')
  await expect(code).toBeVisible()
  await expect(page.getByText('Enter the code of your authenticator app.')).toBeVisible()
  await code.fill('123456')
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page.getByText('The code is wrong or has expired.')).toBeVisible()
  // The code the enrolment used is spent: wait for the next 30 s step.
  await page.waitForTimeout(30_000 - (Date.now() % 30_000) + 500)
  await code.fill(totpCode(secret, Date.now()))
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page).toHaveURL(/\/projects/)

  // Deleting the authenticator turns the code off again.
  await page.goto('/settings/profile')
  await page.getByRole('button', { name: 'Delete Authenticator app' }).click()
  await expect(page.getByText('Disabled Two-Factor Authentication')).toBeVisible()
})
