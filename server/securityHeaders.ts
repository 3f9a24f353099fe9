/**
 * The Content-Security-Policy every response carries (issue 13), checked against what the built
 * app really does (tests/e2e/csp.spec.ts: Setup and Results views draw with no violation):
 * - scripts, module workers (render, data) and their imports come from this origin only, no
 *   inline script and no eval (the app has no WebAssembly in the browser);
 * - fetch and both websockets (/ws/live, /ws/results) go to this origin: 'self' covers ws(s) of
 *   the same host;
 * - styles are the built stylesheet; React's style props go through the CSSOM, which CSP allows;
 * - images may be data: URLs (CSS icons) and blob: URLs (saved canvas images, CSV and PNG exports);
 * - nothing may frame the app (frame-ancestors 'none': no clickjacking), no plugins, no <base>
 *   or form posts elsewhere.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "worker-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data: blob:",
  "style-src 'self'",
  "font-src 'self' data:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ')

/** Headers beside the cross-origin isolation ones, on every response. */
export const SECURITY_HEADERS = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  // Links to help and ticket sites carry no path of the app (ids of simulations and projects).
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
} as const
