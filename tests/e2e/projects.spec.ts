import { expect, test } from '@playwright/test'
import { LoginPage } from './pages/LoginPage.ts'
import { ProjectsPage } from './pages/ProjectsPage.ts'

const stamp = () => Date.now().toString(36)

test('a manager creates a project and runs the simulation lifecycle: create, rename, clone, move, delete', async ({
  page,
}) => {
  await new LoginPage(page).loginAs('manager')
  const projects = new ProjectsPage(page)
  const first = `Wave tank ${stamp()}`
  const second = `Sloshing ${stamp()}`
  await projects.createProject(first, 'Breaking waves on a sloped beach')
  await projects.createProject(second)

  await projects.createSimulation(first, 'Run A')
  await expect(projects.simulationRow(first, 'Run A')).toBeVisible()
  await expect(projects.simulationRow(first, 'Run A')).toContainText('not started', {
    ignoreCase: true,
  })

  // A duplicate name is refused in the form, and nothing is added.
  await projects.project(first).getByRole('button', { name: 'New Simulation' }).click()
  await projects.dialog().getByLabel('Name').fill('Run A')
  await projects.dialog().getByRole('button', { name: 'Save' }).click()
  await expect(projects.dialog()).toContainText('Name is already used')
  await projects.dialog().getByRole('button', { name: 'Cancel' }).click()

  await projects.simulationAction(first, 'Run A', 'Rename')
  await projects.dialog().getByLabel('Name').fill('Run B')
  await projects.dialog().getByRole('button', { name: 'Save' }).click()
  await expect(projects.simulationRow(first, 'Run B')).toBeVisible()
  await expect(projects.project(first).getByText('Run A', { exact: true })).toHaveCount(0)

  await projects.simulationAction(first, 'Run B', 'Clone')
  await expect(projects.simulationRow(first, 'Run B (copy)')).toBeVisible()

  await projects.simulationAction(first, 'Run B (copy)', 'Move')
  await projects.dialog().getByLabel('Project').selectOption({ label: second })
  await projects.dialog().getByRole('button', { name: 'Move' }).click()
  await expect(projects.simulationRow(second, 'Run B (copy)')).toBeVisible()
  await expect(projects.project(first).getByText('Run B (copy)', { exact: true })).toHaveCount(0)

  await projects.simulationAction(second, 'Run B (copy)', 'Delete')
  const confirm = projects.dialog().getByLabel('Type the name to confirm')
  await confirm.fill('wrong name')
  await expect(projects.dialog()).toContainText('The names must match')
  await expect(projects.dialog().getByRole('button', { name: 'Delete' })).toBeDisabled()
  await confirm.fill('Run B (copy)')
  await projects.dialog().getByRole('button', { name: 'Delete' }).click()
  await expect(projects.project(second).getByText('No simulations')).toBeVisible()

  // The list survives a reload: it came from the server, not from page state.
  await page.reload()
  await expect(projects.simulationRow(first, 'Run B')).toBeVisible()
})

test('deleting a project needs its exact name', async ({ page }) => {
  await new LoginPage(page).loginAs('manager')
  const projects = new ProjectsPage(page)
  const name = `Temporary ${stamp()}`
  await projects.createProject(name)
  await projects.project(name).getByRole('button', { name: 'Delete' }).click()
  const dialog = projects.dialog()
  await dialog.getByLabel('Type the name to confirm').fill(name.toUpperCase())
  await expect(dialog.getByRole('button', { name: 'Delete' })).toBeDisabled()
  await dialog.getByLabel('Type the name to confirm').fill(name)
  await dialog.getByRole('button', { name: 'Delete' }).click()
  await expect(projects.project(name)).toHaveCount(0)
})

test('search narrows the list and is kept in the URL', async ({ page }) => {
  await new LoginPage(page).loginAs('manager')
  const projects = new ProjectsPage(page)
  await projects.search('Dam break')
  await expect(page).toHaveURL(/search=Dam(\+|%20)break/)
  await expect(projects.project('Demo project')).toBeVisible()
  await projects.search('no project is called like this')
  await expect(
    page.getByText('No projects found. Please adjust your search parameters.'),
  ).toBeVisible()
})

test('a simulation that has not started has no results to analyse', async ({ page }) => {
  await new LoginPage(page).loginAs('manager')
  const projects = new ProjectsPage(page)
  const name = `Results gate ${stamp()}`
  await projects.createProject(name)
  await projects.createSimulation(name, 'Fresh')
  await projects.simulationRow(name, 'Fresh').getByText('Fresh', { exact: true }).click()
  await expect(page).toHaveURL(/\/simulation\/\d+\/preprocessor/)
  const id = /\/simulation\/(\d+)\//.exec(page.url())?.[1]
  await page.goto(`/simulation/${id}/postprocessor`)
  await expect(
    page.getByText("You don't have any results to analyze. Start the simulation first."),
  ).toBeVisible()
  await expect(page.getByText('Please start the simulation first.')).toBeVisible()
  await page.goto(`/simulation/${id}/elsewhere`)
  await expect(page.getByText("It's empty here!")).toBeVisible()
})
