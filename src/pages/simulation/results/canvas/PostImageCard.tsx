import { useQuery } from '@tanstack/react-query'
import { useEffect } from 'react'
import type { Simulation } from '../../../../../domain/projects.ts'
import { fetchImageUrl } from './saveImage.ts'

/**
 * The simulation's post image (saved from the Results screen with Save Image) on the monitoring
 * page: what 'Image saved! You can see it on the monitoring page' points to.
 */
export function PostImageCard({ simulation }: { simulation: Simulation }) {
  const imageId = simulation.postImageId
  const image = useQuery({
    queryKey: ['postImage', imageId],
    queryFn: ({ signal }) => fetchImageUrl(imageId as number, signal),
    enabled: imageId !== null,
    // Each mount fetches its own object URL and revokes it when done (a cached one may be revoked).
    gcTime: 0,
    staleTime: Infinity,
  })
  const url = image.data
  useEffect(() => {
    if (url === undefined) return
    return () => URL.revokeObjectURL(url)
  }, [url])

  return (
    <section className="card card--padded sim-grid__wide" aria-labelledby="post-image-heading">
      <h2 id="post-image-heading" className="card__title">
        Post image
      </h2>
      {imageId === null ? (
        <p className="placeholder__text">
          No image yet: save one from the Results screen with Save Image.
        </p>
      ) : image.isError ? (
        <p className="placeholder__text" role="alert">
          The post image could not be loaded.
        </p>
      ) : url === undefined ? (
        <p className="placeholder__text">Loading the post image…</p>
      ) : (
        <img
          className="post-image"
          src={url}
          alt={`Post image of ${simulation.name}`}
          style={{ display: 'block', maxWidth: '100%', borderRadius: 'var(--radius)' }}
        />
      )}
    </section>
  )
}
