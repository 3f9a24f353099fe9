import { expect, test, type APIRequestContext } from '@playwright/test'
import { LoginPage } from './pages/LoginPage.ts'

/*
 * The run lifecycle from the app: the seeded dam break (coarsened through the API so the test
 * stays short) is started from the simulation header, its progress arrives over the live
 * channel (the simulation poll is 60 s while running, longer than this test), it completes and
 * opens in Results.
 */

interface Json {
  [key: string]: unknown
}

async function findDemoSimulation(request: APIRequestContext, token: string): Promise<number> {
  const reply = await request.get('/api/projects?pageLimit=30', {
    headers: { authorization: `Bearer ${token}` },
  })
  const body = (await reply.json()) as {
    results: { simulations: { id: number; name: string }[] }[]
  }
  const simulation = body.results
    .flatMap((project) => project.simulations)
    .find((s) => s.name === 'Dam break')
  if (!simulation) throw new Error('the demo dam break is missing')
  return simulation.id
}

test('runs the demo dam break from the app, follows its progress live, and opens it in Results', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000)
  await new LoginPage(page).loginAs('manager')
  const token = await page.evaluate(
    () =>
      (JSON.parse(localStorage.getItem('dive.auth') ?? '{}') as { accessToken: string })
        .accessToken,
  )
  const id = await findDemoSimulation(request, token)
  const coarse = await request.put(`/api/simulations/${id}`, {
    headers: { authorization: `Bearer ${token}` },
    data: { settings: { particleDiameter: 0.02, endTime: 0.1, outputTimeInterval: 0.015 } },
  })
  expect(coarse.status()).toBe(200)

  const liveFrames: Json[] = []
  page.on('websocket', (socket) => {
    if (!socket.url().endsWith('/ws/live')) return
    socket.on('framereceived', (frame) =>
      liveFrames.push(JSON.parse(String(frame.payload)) as Json),
    )
  })
  await page.goto(`/simulation/${id}/dashboard`)
  const header = page.locator('.sim-header')
  await expect(header.getByText('Not started')).toBeVisible()

  await header.getByRole('button', { name: 'Run', exact: true }).click()
  const dialog = page.getByRole('dialog', { name: 'Run simulation' })
  await expect(dialog.getByText('1. General')).toBeVisible()
  await dialog.getByRole('button', { name: 'Next' }).click()
  await expect(dialog.getByText('Step 2 of 2: Alerts')).toBeVisible()
  await dialog.getByRole('button', { name: 'Start' }).click()
  await expect(dialog).toContainText('The simulation is launching!')
  await dialog.getByRole('button', { name: 'Done' }).click()

  await expect(header.getByRole('button', { name: 'Stop' })).toBeVisible()
  const bar = header.getByRole('progressbar', { name: 'Run progress' })
  const progress = async () => Number(await bar.getAttribute('aria-valuenow'))
  // A value between the ends can only have come from a live log line.
  await expect
    .poll(
      async () => {
        const value = await progress()
        return value > 0 && value < 100
      },
      { timeout: 90_000, intervals: [100] },
    )
    .toBe(true)
  await expect(header.getByText('Completed')).toBeVisible({ timeout: 120_000 })
  await expect(bar).toHaveAttribute('aria-valuenow', '100')
  await expect(header.getByRole('button', { name: 'Restart' })).toBeVisible()

  const updates = liveFrames.filter((f) => f.type === 'StoreUpdate')
  expect(updates.some((f) => (f.path as string[]).at(-1) === 'logs')).toBe(true)
  expect(
    updates.some(
      (f) =>
        (f.path as string[]).length === 2 && (f.value as Json | undefined)?.state === 'running',
    ),
  ).toBe(true)

  const outputs = await request.get(`/api/simulations/${id}/outputs`, {
    headers: { authorization: `Bearer ${token}` },
  })
  expect(((await outputs.json()) as unknown[]).length).toBeGreaterThanOrEqual(6)

  await page.locator('.sim-nav').getByRole('link', { name: 'Results' }).click()
  await expect(page).toHaveURL(new RegExp(`/simulation/${id}/postprocessor`))
  await expect(page.getByText("You don't have any results to analyze")).toHaveCount(0)
})
