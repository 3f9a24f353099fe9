import {
  formatFluidVolume,
  formatVolumeDifference,
  type DiscretizedPart,
} from '../../../../../../domain/discretization.ts'
import { PART_MESSAGES, type Part } from '../../../../../../domain/parts.ts'
import { formatNumber, unitSymbol } from '../../../../../../domain/units.ts'
import { Fact } from '../../../../../components/Fact.tsx'
import { summaryOf, useDiscretizationMessages } from '../../discretization/discretizationModel.ts'
import { useDiscretizationQuery } from '../../queries/setupQueries.ts'
import { formatMeasured, formatMeasuredVector } from '../formText.ts'
import { SINGLE_PART_ONLY } from './partSelection.ts'
import type { PartFolderProps } from './usePartEdit.ts'

const m = unitSymbol('length')

/**
 * Particles of the part after the latest discretization: `pointcloudCount` of the part (sent with
 * its point cloud URL), else the discretization summary's count for it; null before any.
 */
function particleCountOf(part: Part, summaryCount: number | undefined): number | null {
  const value: unknown = (part as Part & { pointcloudCount?: unknown }).pointcloudCount
  if (typeof value === 'number') return value
  return summaryCount ?? null
}

/** '9.87 L of 10.3 L (−4.2 %)': a fluid part's particle volume against its own; null for walls. */
export function fluidVolumeText(summary: DiscretizedPart | undefined): string | null {
  if (summary?.role !== 'fluid' || summary.particleVolume === undefined) return null
  let text = formatFluidVolume(summary.particleVolume)
  if (summary.geometricVolume != null) text += ` of ${formatFluidVolume(summary.geometricVolume)}`
  if (summary.volumeDifference != null)
    text += ` (${formatVolumeDifference(summary.volumeDifference)})`
  return text
}

/**
 * The Information folder of one part: the geometry facts the server computed (triangles, surface
 * area, bounding box, centre, normal, holes and non-manifold edges, with 'Part has potential
 * issues. Check Information tab for details.'), the part's warnings, the latest discretization's
 * messages about it, its particle count and, for fluid, the volume its particles hold.
 */
export function InformationFolder({ simulationId, parts }: PartFolderProps) {
  const part = parts.length === 1 ? parts[0] : undefined
  const discretization = useDiscretizationQuery(simulationId).data
  const messages = useDiscretizationMessages(simulationId).byPart
  if (!part) return <p className="property-form__note">{SINGLE_PART_ONLY}</p>
  const info = part.shape.info
  const defects = info ? info.holes.length + info.nonManifold.length : 0
  // The box's largest extent: what float noise is measured against.
  const size = info
    ? Math.max(...info.boundingBox.max.map((v, i) => Math.abs(v - (info.boundingBox.min[i] ?? 0))))
    : 0
  const own = messages.get(part.id) ?? []
  const errors = own.filter((m) => m.level === 'error')
  const warnings = own.filter((m) => m.level === 'warning')
  const summaryCount = summaryOf(discretization)?.parts.find((p) => p.partId === part.id)
  const particles = particleCountOf(part, summaryCount?.particleCount)
  const volume = fluidVolumeText(summaryCount)
  return (
    <div className="property-form">
      {defects > 0 && (
        <p className="setup-field__issue setup-field__issue--warning" role="status">
          {PART_MESSAGES.partIssues}
        </p>
      )}
      {info ? (
        <dl className="facts property-facts">
          <Fact term="Triangles">{formatNumber(info.nbrOfTriangles)}</Fact>
          <Fact term="Surface area">{`${formatMeasured(info.surfaceArea, 0)} m²`}</Fact>
          <Fact term="Bounding box min">{formatMeasuredVector(info.boundingBox.min, m, size)}</Fact>
          <Fact term="Bounding box max">{formatMeasuredVector(info.boundingBox.max, m, size)}</Fact>
          <Fact term="Centre">{formatMeasuredVector(info.center, m, size)}</Fact>
          <Fact term="Planar">{info.isPlanar ? 'Yes' : 'No'}</Fact>
          {info.normal && <Fact term="Normal">{formatMeasuredVector(info.normal, '', 1)}</Fact>}
          <Fact term="Holes">{formatNumber(info.holes.length)}</Fact>
          <Fact term="Non-manifold edges">{formatNumber(info.nonManifold.length)}</Fact>
        </dl>
      ) : (
        <p className="property-form__note">No geometry facts yet: the part has no geometry.</p>
      )}
      <dl className="facts property-facts">
        <Fact term="Particles">
          {particles === null ? 'Not discretized yet' : formatNumber(particles)}
        </Fact>
        {volume !== null && <Fact term="Fluid volume">{volume}</Fact>}
      </dl>
      <MessageList
        title="Warnings"
        messages={part.warnings.map((w) => w.message)}
        level="warning"
      />
      <MessageList
        title="Discretization errors"
        messages={errors.map((e) => e.description)}
        level="error"
      />
      <MessageList
        title="Discretization warnings"
        messages={warnings.map((w) => w.description)}
        level="warning"
      />
    </div>
  )
}

function MessageList({
  title,
  messages,
  level,
}: {
  title: string
  messages: readonly string[]
  level: 'warning' | 'error'
}) {
  if (messages.length === 0) return null
  return (
    <section className="property-form__messages" aria-label={title}>
      <h3 className="property-form__heading">{title}</h3>
      <ul>
        {messages.map((message, index) => (
          <li key={index} className={`setup-field__issue setup-field__issue--${level}`}>
            {message}
          </li>
        ))}
      </ul>
    </section>
  )
}
