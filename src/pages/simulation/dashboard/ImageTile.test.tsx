import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import { useState } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Simulation } from '../../../../domain/projects.ts'
import type { Image } from '../../../../domain/rest/imageRoutes.ts'
import { tokenStore } from '../../../api/index.ts'
import { ImageTileBody, POST_IMAGE_CHOICE } from './tiles/ContentTiles.tsx'

/* The image tile's picker (issue 14): the post image by default, any image of the simulation. */

const SIMULATION = {
  id: 5,
  name: 'Dam break',
  postImageId: 12,
} as unknown as Simulation

const image = (id: number, name: string, createdAt: string): Image => ({
  id,
  name,
  contentType: 'image/png',
  sizeBytes: 100,
  createdAt,
  url: `/api/images/${id}`,
})

const IMAGES = [
  image(14, 'Dam break output 9.png', '2026-11-27T09:30:00.000Z'),
  image(12, 'Dam break output 4.png', '2026-11-27T09:00:00.000Z'),
]

let requested: string[] = []

beforeEach(() => {
  requested = []
  tokenStore.write({ accessToken: 'a', refreshToken: 'r', expiresAtMs: Date.now() + 60_000 })
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL) => {
      const url = new URL(
        input instanceof Request ? input.url : input.toString(),
        'http://dive.test',
      )
      requested.push(url.pathname)
      if (url.pathname === '/api/simulations/5/images')
        return Promise.resolve(Response.json(IMAGES))
      const match = /^\/api\/images\/(\d+)$/.exec(url.pathname)
      if (match)
        return Promise.resolve(
          new Response(new Uint8Array([0x89, 0x50, 0x4e, 0x47]), {
            headers: { 'content-type': 'image/png' },
          }),
        )
      return Promise.resolve(new Response('', { status: 404 }))
    }),
  )
  // jsdom has no object URLs: name each after the image fetched last.
  Object.assign(URL, {
    createObjectURL: () =>
      `blob:${requested.filter((path) => path.startsWith('/api/images/')).at(-1)}`,
    revokeObjectURL: () => undefined,
  })
})

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  tokenStore.clear()
  const objectUrls = URL as unknown as Record<string, unknown>
  delete objectUrls.createObjectURL
  delete objectUrls.revokeObjectURL
})

/** The tile as the dashboard wires it: a pick is saved as the tile's imageId. */
function Tile({ onSave }: { onSave: (imageId: number | null) => void }) {
  const [imageId, setImageId] = useState<number | null>(null)
  return (
    <ImageTileBody
      simulation={SIMULATION}
      imageId={imageId}
      saving={false}
      onPick={(picked) => {
        onSave(picked)
        setImageId(picked)
      }}
    />
  )
}

function renderTile(onSave: (imageId: number | null) => void) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  return render(
    <QueryClientProvider client={queryClient}>
      <Tile onSave={onSave} />
    </QueryClientProvider>,
  )
}

describe('image tile', () => {
  it('shows the post image by default and lets the user pick any image of the simulation', async () => {
    const onSave = vi.fn()
    renderTile(onSave)
    const post = await screen.findByRole('img', { name: 'Post image of Dam break' })
    expect(post.getAttribute('src')).toBe('blob:/api/images/12')

    const picker = screen.getByRole('combobox', { name: 'Image shown' })
    expect((picker as HTMLSelectElement).value).toBe('')
    await vi.waitFor(() =>
      expect(
        within(picker)
          .getAllByRole('option')
          .map((option) => option.textContent),
      ).toEqual([
        POST_IMAGE_CHOICE,
        expect.stringMatching(/^Dam break output 9\.png · \d\d\.\d\d\.2026, \d\d:\d\d$/),
        expect.stringMatching(/^Dam break output 4\.png · .* \(post image\)$/),
      ]),
    )
    expect(requested).toContain('/api/simulations/5/images')

    fireEvent.change(picker, { target: { value: '14' } })
    expect(onSave).toHaveBeenLastCalledWith(14)
    const chosen = await screen.findByRole('img', { name: 'Dam break output 9.png of Dam break' })
    expect(chosen.getAttribute('src')).toBe('blob:/api/images/14')
    expect((picker as HTMLSelectElement).value).toBe('14')
    expect(picker.getAttribute('title')).toMatch(/^Dam break output 9\.png · /)

    // Back to the post image.
    fireEvent.change(picker, { target: { value: '' } })
    expect(onSave).toHaveBeenLastCalledWith(null)
    expect(
      (await screen.findByRole('img', { name: 'Post image of Dam break' })).getAttribute('src'),
    ).toBe('blob:/api/images/12')
  })

  it('says when there is no image yet, and still offers the picker', async () => {
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
    render(
      <QueryClientProvider client={queryClient}>
        <ImageTileBody
          simulation={{ ...SIMULATION, postImageId: null }}
          imageId={null}
          saving={false}
          onPick={() => undefined}
        />
      </QueryClientProvider>,
    )
    expect(screen.getByText(/No image yet/)).toBeTruthy()
    const picker = screen.getByRole('combobox', { name: 'Image shown' })
    await vi.waitFor(() => expect(within(picker).getAllByRole('option')).toHaveLength(3))
  })
})
