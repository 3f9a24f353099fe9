import type { CameraState } from '../../../../domain/results.ts'
import type { RenderIntent } from '../../../../engine/protocol.ts'
import {
  AXIS_SIDES,
  axisSideLabel,
  orientationFromSide,
  projectDirection,
  screenBasis,
  visibleCubeFaces,
  visibleCubeHandles,
  type AxisSide,
} from './gizmoMath.ts'

/** Axis colours: x red, y green, z blue (the render worker draws the origin axes in the same). */
export const AXIS_COLOURS = { x: '#d64545', y: '#2f9e44', z: '#2f6fdb' } as const

/** Size of the gizmo and the cube, CSS pixels. */
const GIZMO_SIZE_PX = 96
const CENTRE = GIZMO_SIZE_PX / 2
const AXIS_LENGTH_PX = 32
const END_RADIUS_PX = 9
const CUBE_HALF_SIZE_PX = 22
const CUBE_HANDLE_RADIUS_PX = 3.5

type Dispatch = (intent: RenderIntent) => void

function orientationIntent(side: AxisSide): RenderIntent {
  const { direction, up } = orientationFromSide(side)
  return { type: 'view_orientation', direction, up }
}

/** Enter and Space act like a click on an SVG button. */
function onKeyActivate(action: () => void) {
  return (event: React.KeyboardEvent) => {
    if (event.key !== 'Enter' && event.key !== ' ') return
    event.preventDefault()
    action()
  }
}

/**
 * The axis gizmo: the world axes as the camera sees them; clicking an end (+X, −X, …) turns the
 * view to look from that side (the render worker animates it over 0.7 s).
 */
export function AxisGizmo({ camera, dispatch }: { camera: CameraState; dispatch: Dispatch }) {
  const basis = screenBasis(camera)
  const ends = AXIS_SIDES.map((side) => {
    const vector = [0, 0, 0]
    vector['xyz'.indexOf(side.axis)] = side.positive ? 1 : -1
    const projected = projectDirection(vector, basis)
    return {
      side,
      x: CENTRE + projected.x * AXIS_LENGTH_PX,
      y: CENTRE + projected.y * AXIS_LENGTH_PX,
      depth: projected.depth,
    }
  }).sort((a, b) => a.depth - b.depth)
  return (
    <svg
      className="canvas-gizmo"
      width={GIZMO_SIZE_PX}
      height={GIZMO_SIZE_PX}
      viewBox={`0 0 ${GIZMO_SIZE_PX} ${GIZMO_SIZE_PX}`}
      role="group"
      aria-label="Axis gizmo"
    >
      {ends
        .filter((end) => end.side.positive)
        .map((end) => (
          <line
            key={`line-${end.side.axis}`}
            x1={CENTRE}
            y1={CENTRE}
            x2={end.x}
            y2={end.y}
            stroke={AXIS_COLOURS[end.side.axis]}
            strokeWidth={2}
          />
        ))}
      {ends.map((end) => {
        const label = axisSideLabel(end.side)
        const colour = AXIS_COLOURS[end.side.axis]
        const activate = () => dispatch(orientationIntent(end.side))
        return (
          <g
            key={label}
            role="button"
            tabIndex={0}
            aria-label={`View from ${label}`}
            className="canvas-gizmo__end"
            data-axis={label}
            onClick={activate}
            onKeyDown={onKeyActivate(activate)}
          >
            <circle
              cx={end.x}
              cy={end.y}
              r={END_RADIUS_PX}
              fill={end.side.positive ? colour : '#ffffff'}
              stroke={colour}
              strokeWidth={end.side.positive ? 0 : 1.5}
              opacity={end.depth < -0.05 ? 0.75 : 1}
            />
            <text
              x={end.x}
              y={end.y}
              dy="0.35em"
              textAnchor="middle"
              fontSize={end.side.positive ? 10 : 8}
              fontWeight={600}
              fill={end.side.positive ? '#ffffff' : colour}
              pointerEvents="none"
            >
              {end.side.positive ? end.side.axis.toUpperCase() : `−${end.side.axis.toUpperCase()}`}
            </text>
          </g>
        )
      })}
    </svg>
  )
}

/** The view cube: the faces the camera sees; clicking one looks at the model from that face. */
export function ViewCube({ camera, dispatch }: { camera: CameraState; dispatch: Dispatch }) {
  const faces = visibleCubeFaces(camera, CUBE_HALF_SIZE_PX)
  const handles = visibleCubeHandles(camera, CUBE_HALF_SIZE_PX)
  return (
    <svg
      className="canvas-cube"
      width={GIZMO_SIZE_PX}
      height={GIZMO_SIZE_PX}
      viewBox={`0 0 ${GIZMO_SIZE_PX} ${GIZMO_SIZE_PX}`}
      role="group"
      aria-label="View cube"
    >
      {faces.map((face) => {
        const activate = () => dispatch(orientationIntent(face.side))
        const points = face.points.map((p) => `${CENTRE + p.x},${CENTRE + p.y}`).join(' ')
        // Faces seen edge-on get no label: it would be squeezed unreadable.
        const labelled = face.facing > 0.35
        return (
          <g
            key={face.name}
            role="button"
            tabIndex={0}
            aria-label={`View ${face.name}`}
            className="canvas-cube__face"
            onClick={activate}
            onKeyDown={onKeyActivate(activate)}
          >
            <polygon
              points={points}
              fill={`rgba(255, 255, 255, ${0.7 + 0.25 * face.facing})`}
              stroke="#8a97a8"
              strokeWidth={1}
              strokeLinejoin="round"
            />
            {labelled && (
              <text
                x={CENTRE + face.centre.x}
                y={CENTRE + face.centre.y}
                dy="0.35em"
                textAnchor="middle"
                fontSize={9}
                fontWeight={600}
                fill="#3b4756"
                pointerEvents="none"
              >
                {face.name}
              </text>
            )}
          </g>
        )
      })}
      {handles.map((handle) => {
        const activate = () => dispatch({ type: 'view_orientation', ...handle.orientation })
        return (
          <g
            key={handle.name}
            role="button"
            tabIndex={0}
            aria-label={`View ${handle.name}`}
            className="canvas-cube__handle"
            onClick={activate}
            onKeyDown={onKeyActivate(activate)}
          >
            <circle
              cx={CENTRE + handle.x}
              cy={CENTRE + handle.y}
              r={CUBE_HANDLE_RADIUS_PX}
              fill="#ffffff"
              stroke="#8a97a8"
              strokeWidth={1}
            />
          </g>
        )
      })}
    </svg>
  )
}
