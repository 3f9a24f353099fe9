import { expect, type Locator, type Page, type TestInfo } from '@playwright/test'
import { LoginPage } from './LoginPage.ts'
import { ProjectsPage } from './ProjectsPage.ts'

/** The Setup view (/simulation/{id}/preprocessor): explorer, Add menu, side forms, 3D view. */
export class SetupPage {
  readonly page: Page
  readonly explorer: Locator
  readonly form: Locator
  readonly view: Locator
  #shots: TestInfo | null
  #shotNo = 0

  /** `shots`: the test whose output folder collects a screenshot per step. */
  constructor(page: Page, shots: TestInfo | null = null) {
    this.page = page
    this.explorer = page.getByRole('complementary', { name: 'Object explorer' })
    this.form = page.locator('.setup-side-form')
    this.view = page.getByRole('region', { name: 'Setup view' })
    this.#shots = shots
  }

  /**
   * Logs in as the manager, creates `name` in the demo project and opens its Setup view, empty and
   * initialized.
   */
  static async openNewSimulation(page: Page, shots: TestInfo | null, name: string) {
    await new LoginPage(page).loginAs('manager')
    const projects = new ProjectsPage(page)
    await projects.createSimulation('Demo project', name)
    await projects
      .simulationRow('Demo project', name)
      .getByRole('link', { name: 'Setup', exact: true })
      .click()
    await expect(page).toHaveURL(/\/simulation\/\d+\/preprocessor$/)
    const setup = new SetupPage(page, shots)
    await setup.expectInitialized()
    return setup
  }

  /** Discretizes the setup and waits for 'Discretized'. */
  async discretize(): Promise<void> {
    await this.page.getByRole('button', { name: 'Discretize', exact: true }).click()
    await expect(this.page.getByTestId('discretization-status')).toContainText('Discretized', {
      timeout: 60_000,
    })
    await this.shot('discretized')
  }

  /** Starts a run from the header's Run dialog (the default solver) and waits for Completed. */
  async runToCompleted(): Promise<void> {
    const header = this.page.locator('.sim-header')
    await header.getByRole('button', { name: 'Run', exact: true }).click()
    const dialog = this.page.getByRole('dialog', { name: 'Run simulation' })
    await dialog.getByRole('button', { name: 'Next' }).click()
    await dialog.getByRole('button', { name: 'Start' }).click()
    await expect(dialog).toContainText('The simulation is launching!')
    await dialog.getByRole('button', { name: 'Done' }).click()
    await expect(header.getByText('Completed')).toBeVisible({ timeout: 150_000 })
    await this.shot('completed')
  }

  /** Opens Results and waits until it draws particles. */
  async openResults(): Promise<void> {
    await this.page.getByRole('link', { name: 'Results', exact: true }).click()
    await expect(this.page).toHaveURL(/\/postprocessor$/)
    const points = this.page.getByTestId('viewport-points')
    await expect
      .poll(async () => Number((await points.innerText()).replace(/\D/g, '')), { timeout: 60_000 })
      .toBeGreaterThan(0)
    await this.shot('results')
  }

  /** A screenshot of the whole page, numbered, in the test's output folder (looked at by people). */
  async shot(step: string): Promise<void> {
    if (!this.#shots) return
    this.#shotNo += 1
    const name = `${String(this.#shotNo).padStart(2, '0')}-${step}.png`
    await this.page.screenshot({ path: this.#shots.outputPath(name) })
  }

  /** Waits until the 3D view has every mesh: 'Successfully initialized.' */
  async expectInitialized(): Promise<void> {
    await expect(this.view.getByText('Successfully initialized.')).toBeVisible({ timeout: 30_000 })
  }

  async openAddMenu(entry: string): Promise<void> {
    await this.page.getByRole('button', { name: 'Add', exact: true }).click()
    await this.page.getByRole('menuitem', { name: entry, exact: true }).click()
  }

  /** Adds a solid from an STL file in `unit`. */
  async addStlSolid(file: string, unit: 'm' | 'mm' | 'in'): Promise<void> {
    await this.openAddMenu('Solid')
    await this.form.getByLabel('File unit').selectOption(unit)
    await this.form.locator('input[type=file]').setInputFiles(file)
    await this.form.getByRole('button', { name: 'Add part', exact: true }).click()
  }

  /** Adds a box part: a solid ('Solid') or a filling ('Fluid') with a fill height. */
  async addBox(
    entry: 'Solid' | 'Fluid',
    box: {
      name: string
      dimensions: [number, number, number]
      position: [number, number, number]
      fillHeight?: number
    },
  ): Promise<void> {
    await this.openAddMenu(entry)
    await this.form.getByLabel('Box').check()
    await this.form.getByLabel('Name').fill(box.name)
    await this.fillVector('Dimensions', box.dimensions)
    await this.fillVector('Position', box.position)
    if (box.fillHeight !== undefined)
      await this.form.getByLabel('Fill height').fill(String(box.fillHeight))
    await this.form.getByRole('button', { name: 'Add part', exact: true }).click()
    await expect(this.explorer.getByText(box.name, { exact: true })).toBeVisible()
  }

  /** Types a vector field of the open form, component by component (committed on blur). */
  async fillVector(label: string, value: readonly number[]): Promise<void> {
    for (const [index, axis] of ['x', 'y', 'z'].entries()) {
      const input = this.form.getByLabel(new RegExp(`^${label} ${axis}\\b`))
      await input.fill(String(value[index]))
      await input.blur()
    }
  }

  /** Types a number field of the open form and commits it with Enter. */
  async fillNumber(label: string, value: number): Promise<void> {
    const input = this.form.getByLabel(label, { exact: true })
    await input.fill(String(value))
    await input.press('Enter')
    await expect(input).toHaveValue(String(value))
  }
}
