import { expect, test } from '@playwright/test'
import { LoginPage } from './pages/LoginPage.ts'
import { ProjectsPage } from './pages/ProjectsPage.ts'

test('a contributor sees only their own projects and no My/All toggle', async ({ page }) => {
  await new LoginPage(page).loginAs('contributor')
  const projects = new ProjectsPage(page)
  await expect(projects.project('Contributor sandbox')).toBeVisible()
  await expect(projects.project('Demo project')).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'All projects' })).toHaveCount(0)
  // Even a hand-written URL does not show someone else's project.
  await page.goto('/projects?view=all')
  await expect(projects.project('Contributor sandbox')).toBeVisible()
  await expect(projects.project('Demo project')).toHaveCount(0)
})

test('a manager switches between own and all projects and sees owners', async ({ page }) => {
  await new LoginPage(page).loginAs('manager')
  const projects = new ProjectsPage(page)
  await expect(projects.project('Demo project')).toBeVisible()
  await expect(projects.project('Contributor sandbox')).toHaveCount(0)
  await page.getByRole('button', { name: 'All projects' }).click()
  await expect(page).toHaveURL(/view=all/)
  const sandbox = projects.project('Contributor sandbox')
  await expect(sandbox).toBeVisible()
  await expect(sandbox).toContainText('Carl Contributor')
  await page.getByRole('button', { name: 'My projects' }).click()
  await expect(projects.project('Contributor sandbox')).toHaveCount(0)
})

test("a contributor cannot open a manager's simulation by its URL", async ({ page, request }) => {
  // Find the manager's demo simulation id through the API as the manager.
  const login = await request.post('/api/auth/login', {
    data: { email: 'manager@dive.example', password: 'dive-demo' },
  })
  const { accessToken } = (await login.json()) as { accessToken: string }
  const list = await request.get('/api/projects?q=Dam%20break', {
    headers: { Authorization: `Bearer ${accessToken}` },
  })
  const body = (await list.json()) as {
    results: { name: string; simulations: { id: number; name: string }[] }[]
  }
  const id = body.results
    .find((p) => p.name === 'Demo project')
    ?.simulations.find((s) => s.name === 'Dam break')?.id
  expect(id).toBeDefined()

  await new LoginPage(page).loginAs('contributor')
  await page.goto(`/simulation/${id}/preprocessor`)
  await expect(page.getByText('Dam break', { exact: true })).toHaveCount(0)
  await expect(page.getByText(/empty here|not found/i).first()).toBeVisible()
})
