import { expect, type Locator, type Page } from '@playwright/test'

/** The Projects page: projects as cards, each with its simulation table and actions menus. */
export class ProjectsPage {
  readonly page: Page
  constructor(page: Page) {
    this.page = page
  }

  project(name: string): Locator {
    return this.page.getByRole('article', { name: `Project ${name}`, exact: true })
  }

  simulationRow(project: string, simulation: string): Locator {
    return this.project(project)
      .getByRole('row')
      .filter({ has: this.page.getByText(simulation, { exact: true }) })
  }

  dialog(): Locator {
    return this.page.getByRole('dialog')
  }

  async search(text: string): Promise<void> {
    await this.page.getByLabel('Search').fill(text)
  }

  async createProject(name: string, description = ''): Promise<void> {
    await this.page.getByRole('button', { name: 'New project' }).click()
    const dialog = this.dialog()
    await dialog.getByLabel('Name').fill(name)
    if (description) await dialog.getByLabel('Description').fill(description)
    await dialog.getByRole('button', { name: 'Save' }).click()
    await expect(dialog).toBeHidden()
    await expect(this.project(name)).toBeVisible()
  }

  async createSimulation(project: string, name: string): Promise<void> {
    await this.project(project).getByRole('button', { name: 'New Simulation' }).click()
    const dialog = this.dialog()
    await dialog.getByLabel('Name').fill(name)
    await dialog.getByRole('button', { name: 'Save' }).click()
    await expect(dialog).toBeHidden()
  }

  async openActions(project: string, simulation: string): Promise<void> {
    await this.project(project)
      .getByRole('button', { name: `Actions for ${simulation}`, exact: true })
      .click()
  }

  async simulationAction(project: string, simulation: string, item: string): Promise<void> {
    await this.openActions(project, simulation)
    await this.page.getByRole('menuitem', { name: item, exact: true }).click()
  }
}
