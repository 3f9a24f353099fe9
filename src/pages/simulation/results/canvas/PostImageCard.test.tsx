import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Simulation } from '../../../../../domain/projects.ts'
import { PostImageCard } from './PostImageCard.tsx'

const images = vi.hoisted(() => ({ requested: [] as number[], fail: false }))
let revoke = vi.fn()

vi.mock('./saveImage.ts', () => ({
  fetchImageUrl: (imageId: number) => {
    images.requested.push(imageId)
    return images.fail ? Promise.reject(new Error('404')) : Promise.resolve(`blob:image-${imageId}`)
  },
}))

function renderCard(postImageId: number | null) {
  const simulation = { id: 5, name: 'Dam break', postImageId } as Simulation
  return render(
    <QueryClientProvider
      client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}
    >
      <PostImageCard simulation={simulation} />
    </QueryClientProvider>,
  )
}

beforeEach(() => {
  images.requested = []
  images.fail = false
  revoke = vi.fn()
  URL.revokeObjectURL = revoke
})
afterEach(cleanup)

describe('post image card (monitoring page)', () => {
  it('shows the saved post image of the simulation', async () => {
    renderCard(9)
    const image = await screen.findByRole('img', { name: 'Post image of Dam break' })
    expect(image.getAttribute('src')).toBe('blob:image-9')
    expect(images.requested).toEqual([9])
  })

  it('says how to get one when there is none, without fetching', () => {
    renderCard(null)
    expect(screen.getByText(/save one from the Results screen with Save Image/)).toBeTruthy()
    expect(images.requested).toEqual([])
  })

  it('says when the image cannot be loaded', async () => {
    images.fail = true
    renderCard(3)
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The post image could not be loaded.',
    )
  })

  it('frees the image when it leaves the page', async () => {
    const view = renderCard(9)
    await screen.findByRole('img')
    view.unmount()
    expect(revoke).toHaveBeenCalledWith('blob:image-9')
  })
})
