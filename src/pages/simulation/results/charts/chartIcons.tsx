import type { ReactNode } from 'react'

/** A 16 px stroke icon (24-unit box), drawn in the text colour. */
function PanelIcon({ children }: { children: ReactNode }) {
  return (
    <svg
      width="16"
      height="16"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {children}
    </svg>
  )
}

/** A bar at the bottom: minimize. */
export const IconMinimize = () => (
  <PanelIcon>
    <path d="M5 18h14" />
  </PanelIcon>
)

/** A window: restore a minimized panel. */
export const IconRestore = () => (
  <PanelIcon>
    <rect x="4" y="5" width="16" height="14" rx="2" />
    <path d="M4 9h16" />
  </PanelIcon>
)

/** Arrows to two corners: maximize. */
export const IconMaximize = () => (
  <PanelIcon>
    <path d="M14 4h6v6M10 20H4v-6M20 4l-7 7M4 20l7-7" />
  </PanelIcon>
)

/** A screen with its right half taken: half-screen. */
export const IconHalfScreen = () => (
  <PanelIcon>
    <rect x="3" y="4" width="18" height="16" rx="2" />
    <path d="M12 4v16M15 8h3M15 12h3M15 16h3" />
  </PanelIcon>
)

/** Four corners: fullscreen. */
export const IconFullscreen = () => (
  <PanelIcon>
    <path d="M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5" />
  </PanelIcon>
)
