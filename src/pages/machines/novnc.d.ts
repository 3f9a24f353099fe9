/** The part of noVNC's RFB client (@novnc/novnc 1.7, core/rfb.js) the VM window uses. */
declare module '@novnc/novnc' {
  export interface RfbOptions {
    credentials?: { password?: string; username?: string; target?: string }
    shared?: boolean
    wsProtocols?: string[]
  }
  export default class RFB extends EventTarget {
    constructor(target: HTMLElement, urlOrChannel: string | WebSocket, options?: RfbOptions)
    scaleViewport: boolean
    resizeSession: boolean
    viewOnly: boolean
    focusOnClick: boolean
    background: string
    disconnect(): void
    focus(): void
  }
}
