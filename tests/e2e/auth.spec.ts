import { expect, test } from '@playwright/test'
import { DEMO_PASSWORD, LoginPage, USERS } from './pages/LoginPage.ts'

test('an anonymous visitor is sent to the login page and back to where they wanted to go', async ({
  page,
}) => {
  await page.goto('/projects?view=all')
  await expect(page).toHaveURL(/\/login/)
  const login = new LoginPage(page)
  await login.submit(USERS.manager, DEMO_PASSWORD)
  await expect(page).toHaveURL(/\/projects\?view=all/)
  await expect(page).toHaveTitle('Projects | Dive')
})

test('a wrong password is refused with a message and no session', async ({ page }) => {
  const login = new LoginPage(page)
  await login.open()
  await login.submit(USERS.manager, 'not-the-password')
  await expect(page.getByRole('alert')).toContainText(/wrong e-mail or password/i)
  await expect(page).toHaveURL(/\/login/)
})

test('/ redirects to /projects and logging out ends the session', async ({ page }) => {
  await new LoginPage(page).loginAs('manager')
  await page.goto('/')
  await expect(page).toHaveURL(/\/projects/)
  await page.goto('/logout')
  await expect(page).toHaveURL(/\/logout\?confirm=true/)
  await expect(page).toHaveURL(/\/login/, { timeout: 15_000 })
  await page.goto('/projects')
  await expect(page).toHaveURL(/\/login/)
})

test('an unknown route shows the not-found page', async ({ page }) => {
  await new LoginPage(page).loginAs('manager')
  await page.goto('/no/such/place')
  await expect(page.getByText("It's empty here!")).toBeVisible()
})

test('the unauthorized page leads back to login', async ({ page }) => {
  await page.goto('/unauthorized')
  await expect(page.getByText('Authentication Failed')).toBeVisible()
  await page.getByRole('button', { name: 'Login' }).click()
  await expect(page).toHaveURL(/\/(logout|login)/)
})
