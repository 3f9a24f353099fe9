import { expect, test, type Page } from '@playwright/test'
import { LoginPage } from './pages/LoginPage.ts'
import { runSftpBatch } from '../../server/vms/sftpTestKit.ts'
import { ensureResultsDemo, RESULTS_DEMO_NAME, type ResultsDemo } from './support/resultsDemo.ts'

/*
 * Remote VMs end to end (issue 20): a manager launches a VM on the finished results clone from the
 * menu bar's Launch VM dialog, waits for 'The Virtual Machine is started!', opens /machines/{id}
 * and sees ParaView's window drawn in the noVNC canvas (many colours, not a blank or one-colour
 * placeholder), uploads a file into the VM's storage and lists it over SFTP (OpenSSH's sftp in
 * batch mode, the password through SSH_ASKPASS: server/vms/sftpTestKit.ts), turns auto shutdown off (with its
 * confirmation) and on, stops the VM, and finds the hours consumed taken from the VM hours.
 * Needs the local provider's programs (.ci/run installs them).
 */

let demo: ResultsDemo

test.beforeAll(async ({ request }) => {
  test.setTimeout(240_000)
  demo = await ensureResultsDemo(request)
})

/** Distinct colours in the noVNC canvas (sampled every 4th pixel of every 4th row). */
async function canvasColours(page: Page): Promise<number> {
  return page.evaluate(() => {
    const canvas = document.querySelector<HTMLCanvasElement>('.vnc-screen canvas')
    if (!canvas || canvas.width === 0) return 0
    const context = canvas.getContext('2d')
    if (!context) return 0
    const { data, width, height } = context.getImageData(0, 0, canvas.width, canvas.height)
    const colours = new Set<number>()
    for (let y = 0; y < height; y += 4)
      for (let x = 0; x < width; x += 4) {
        const i = (y * width + x) * 4
        colours.add((data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!)
      }
    return colours.size
  })
}

test('launch a VM from the menu bar, see ParaView in the browser, upload, auto shutdown, stop', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000)
  const headers = demo.headers
  const vmPath = `/api/simulations/${demo.simulationId}/remote_vms`
  // A VM left by an earlier run of this spec goes first.
  for (let i = 0; i < 2; i++) {
    const previous = await request.get(vmPath, { headers })
    if (previous.status() !== 200) break
    await request.delete(vmPath, { headers })
    await expect
      .poll(async () => {
        const reply = await request.get(vmPath, { headers })
        return reply.status() === 404 ? 'none' : ((await reply.json()) as { state: string }).state
      })
      .toMatch(/none|stopped|failed/)
  }
  const hoursBefore = (
    (await (await request.get('/api/credits/budget', { headers })).json()) as {
      vmHours: number
    }
  ).vmHours

  await new LoginPage(page).loginAs('manager')
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Machines' })
    .click()
  await expect(page.getByRole('heading', { level: 1, name: 'Machines' })).toBeVisible()
  await page.getByRole('banner').getByRole('button', { name: 'Launch VM' }).click()
  const dialog = page.getByRole('dialog', { name: 'Launch VM' })
  await dialog.getByLabel('Project').selectOption({ label: 'Demo project' })
  await dialog.getByLabel('Simulation').selectOption({ label: RESULTS_DEMO_NAME })
  await dialog.getByRole('button', { name: 'Launch', exact: true }).click()
  await expect(page.getByText('Virtual Machine is launching', { exact: true })).toBeVisible()
  await expect(page.getByText('The Virtual Machine is started!')).toBeVisible({ timeout: 90_000 })

  const vm = (await (await request.get(vmPath, { headers })).json()) as { id: number }
  await page.getByRole('link', { name: 'Open VM' }).first().click()
  await expect(page).toHaveURL(new RegExp(`/machines/${vm.id}$`))
  const window = page.getByRole('region', { name: 'Remote desktop' })
  await expect(window).toHaveAttribute('data-state', 'connected', { timeout: 30_000 })
  // ParaView's window with its panels and the dam break drawn: hundreds of colours.
  await expect
    .poll(() => canvasColours(page), { timeout: 90_000, intervals: [2000] })
    .toBeGreaterThan(200)
  await page.screenshot({ path: test.info().outputPath('vm-paraview.png') })

  // One file into the VM's storage, found there.
  await page.getByLabel('Upload to storage').setInputFiles({
    name: 'notes.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('post-processing notes\n'),
  })
  await page.getByRole('button', { name: 'Upload', exact: true }).click()
  await expect(page.getByText('Uploaded to the home folder')).toBeVisible()
  const storage = await request.get(`/api/remote_vms/${vm.id}/storage`, { headers })
  expect(await storage.json()).toContainEqual({ name: 'notes.txt', sizeBytes: 22 })
  // The same storage over SFTP with OpenSSH's own client: user the VM's id, password the VM's.
  const running = (await (await request.get(vmPath, { headers })).json()) as {
    sftpUrl: string
    password: string
  }
  expect(running.sftpUrl).toMatch(new RegExp(`^sftp://${vm.id}@`))
  const listed = await runSftpBatch(running.sftpUrl, running.password, ['ls -1'])
  expect(listed.code, listed.stderr).toBe(0)
  expect(listed.stdout).toContain('notes.txt')
  expect((await runSftpBatch(running.sftpUrl, 'not-the-password', ['ls -1'])).code).not.toBe(0)

  // Auto shutdown: on from the launch; off asks first; on again sets a time.
  const autoShutdown = page.getByRole('switch', { name: 'Auto shutdown' })
  await expect(autoShutdown).toBeChecked()
  // Stays on until the confirmation.
  await autoShutdown.click()
  await expect(autoShutdown).toBeChecked()
  await page
    .getByRole('dialog', { name: 'Turn auto shutdown off?' })
    .getByRole('button', { name: 'Turn off' })
    .click()
  await expect(autoShutdown).not.toBeChecked()
  expect(
    ((await (await request.get(vmPath, { headers })).json()) as { shutdownTime: string | null })
      .shutdownTime,
  ).toBeNull()
  // The switch follows the server: checked once the new shutdown time is back.
  await autoShutdown.click()
  await expect(autoShutdown).toBeChecked()
  expect(
    ((await (await request.get(vmPath, { headers })).json()) as { shutdownTime: string | null })
      .shutdownTime,
  ).not.toBeNull()

  await page.getByRole('button', { name: 'Stop VM' }).click()
  await expect(page.getByText('Virtual machine is being shut down.')).toBeVisible()
  await expect
    .poll(
      async () =>
        ((await (await request.get(vmPath, { headers })).json()) as { state: string }).state,
    )
    .toBe('stopped')
  const stopped = (await (await request.get(vmPath, { headers })).json()) as {
    hoursConsumed: number
  }
  expect(stopped.hoursConsumed).toBeGreaterThan(0)
  const hoursAfter = (
    (await (await request.get('/api/credits/budget', { headers })).json()) as {
      vmHours: number
    }
  ).vmHours
  expect(hoursAfter).toBeCloseTo(hoursBefore - stopped.hoursConsumed, 6)
})

test('Access storage: one file into the organization storage, listed and downloaded', async ({
  page,
}) => {
  const name = `shared-${Date.now()}.csv`
  await new LoginPage(page).loginAs('manager')
  await page.goto('/machines')
  await expect(page.getByRole('heading', { level: 1, name: 'Machines' })).toBeVisible()
  await page.getByRole('button', { name: 'Access storage' }).click()
  const dialog = page.getByRole('dialog', { name: 'Access storage' })
  await expect(dialog.getByRole('tab', { name: 'Download' })).toHaveAttribute(
    'aria-selected',
    'true',
  )
  // The keyboard moves between the tabs.
  await dialog.getByRole('tab', { name: 'Download' }).focus()
  await page.keyboard.press('ArrowRight')
  await expect(dialog.getByRole('tab', { name: 'Upload' })).toBeFocused()
  await dialog.getByLabel('File').setInputFiles({
    name,
    mimeType: 'text/csv',
    buffer: Buffer.from('x,y\n1,2\n'),
  })
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click()
  await expect(dialog.getByText('Uploaded to the organization storage')).toBeVisible()
  await dialog.getByRole('tab', { name: 'Download' }).click()
  const row = dialog.getByRole('row', { name: new RegExp(name) })
  await expect(row).toContainText('8 B')
  const download = page.waitForEvent('download')
  await row.getByRole('button', { name: `Download ${name}` }).click()
  expect((await download).suggestedFilename()).toBe(name)
  await page.screenshot({ path: test.info().outputPath('access-storage.png') })
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
})
