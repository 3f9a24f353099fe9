/**
 * GLSL of the setup scene (three's ShaderMaterial, GLSL ES 3.00 under WebGL2). Every material
 * reads the shared clip uniforms (the plane is in world space: a fragment with n · p + d < 0 is
 * cut away). Surfaces are lit by a headlight from both sides and can be tinted towards a highlight
 * colour; the selection outline is the surface pushed out along smooth normals by a fixed number of
 * pixels, drawn behind the surface so only a rim shows around it.
 */

const clip = /* glsl */ `
uniform vec4 uClipPlane;
uniform bool uClipEnabled;
varying vec3 vWorldPosition;
bool clippedAway() {
  return uClipEnabled && dot(uClipPlane.xyz, vWorldPosition) + uClipPlane.w < 0.0;
}
`

/** Vertex shader of part and mesh surfaces (position, normal). */
export const SURFACE_VERTEX_SHADER = /* glsl */ `
varying vec3 vWorldPosition;
varying vec3 vViewNormal;

void main() {
  vec4 world = modelMatrix * vec4(position, 1.0);
  vWorldPosition = world.xyz;
  vViewNormal = normalize(normalMatrix * normal);
  gl_Position = projectionMatrix * viewMatrix * world;
}
`

/** Fragment shader of surfaces: headlight shading of the colour, mixed towards the tint. */
export const SURFACE_FRAGMENT_SHADER = /* glsl */ `
${clip}
uniform vec3 uColour;
uniform float uOpacity;
uniform vec3 uTint;
uniform float uTintAmount;
varying vec3 vViewNormal;

void main() {
  if (clippedAway()) discard;
  vec3 normal = normalize(vViewNormal);
  float light = 0.3 + 0.7 * abs(normal.z);
  vec3 colour = mix(uColour * light, uTint, uTintAmount);
  gl_FragColor = vec4(colour, uOpacity);
}
`

/** Vertex shader of the selection outline: the surface pushed out by uWidthPx on screen. */
export const OUTLINE_VERTEX_SHADER = /* glsl */ `
attribute vec3 outlineNormal;
uniform vec2 uViewportPx;
uniform float uWidthPx;
varying vec3 vWorldPosition;

void main() {
  vec4 world = modelMatrix * vec4(position, 1.0);
  vWorldPosition = world.xyz;
  vec4 clipPosition = projectionMatrix * viewMatrix * world;
  vec3 viewNormal = normalize(normalMatrix * outlineNormal);
  vec2 direction = (projectionMatrix * vec4(viewNormal, 0.0)).xy;
  float span = max(length(direction), 1e-6);
  clipPosition.xy += direction / span * uWidthPx * 2.0 / uViewportPx * clipPosition.w;
  gl_Position = clipPosition;
}
`

/** Fragment shader of the outline: one flat colour. */
export const OUTLINE_FRAGMENT_SHADER = /* glsl */ `
${clip}
uniform vec3 uColour;

void main() {
  if (clippedAway()) discard;
  gl_FragColor = vec4(uColour, 1.0);
}
`

/** Vertex shader of lines (wireframes, the domain box, mesh-health edges, arrows). */
export const LINE_VERTEX_SHADER = /* glsl */ `
varying vec3 vWorldPosition;

void main() {
  vec4 world = modelMatrix * vec4(position, 1.0);
  vWorldPosition = world.xyz;
  gl_Position = projectionMatrix * viewMatrix * world;
}
`

/** Fragment shader of lines and flat handles: one colour, clipped unless uClipped is off. */
export const FLAT_FRAGMENT_SHADER = /* glsl */ `
${clip}
uniform vec3 uColour;
uniform float uOpacity;
uniform bool uClipped;

void main() {
  if (uClipped && clippedAway()) discard;
  gl_FragColor = vec4(uColour, uOpacity);
}
`

/** Vertex shader of point sprites (markers, seed handles, discretized particles). */
export const POINT_VERTEX_SHADER = /* glsl */ `
uniform float uSizePx;
uniform float uPixelRatio;
varying vec3 vWorldPosition;

void main() {
  vec4 world = modelMatrix * vec4(position, 1.0);
  vWorldPosition = world.xyz;
  gl_Position = projectionMatrix * viewMatrix * world;
  gl_PointSize = uSizePx * uPixelRatio;
}
`

/** Fragment shader of point sprites: a disc, ringed in dark when uRing is on. */
export const POINT_FRAGMENT_SHADER = /* glsl */ `
${clip}
uniform vec3 uColour;
uniform float uOpacity;
uniform bool uClipped;
uniform bool uRing;

void main() {
  if (uClipped && clippedAway()) discard;
  vec2 c = gl_PointCoord * 2.0 - 1.0;
  float r2 = dot(c, c);
  if (r2 > 1.0) discard;
  vec3 colour = uRing && r2 > 0.45 ? vec3(0.1, 0.12, 0.15) : uColour;
  gl_FragColor = vec4(colour, uOpacity);
}
`
