/**
 * GLSL of the setup scene (three's ShaderMaterial, GLSL ES 3.00 under WebGL2). Every material
 * reads the shared clip uniforms (the plane is in world space: a fragment with n · p + d < 0 is
 * cut away). Colours are three Colors (linear); each shader works in linear light and writes
 * through three's output conversion (sRGB), so a part's '#2D69B2' reads as '#2D69B2' where the
 * light falls full on it. Surfaces are lit from both sides by a headlight a little above and left
 * of the camera plus a sky / ground hemisphere about world +z (tops lighter than sides, sides
 * lighter than bottoms), so the faces of a box differ in shade from any view; a highlight
 * lightens them in its colour. The selection rim is the surface pushed out along smooth normals by
 * a fixed number of pixels, drawn only outside the object's own silhouette (stencil).
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
varying vec3 vViewPosition;
varying vec3 vViewNormal;

void main() {
  vec4 world = modelMatrix * vec4(position, 1.0);
  vWorldPosition = world.xyz;
  vec4 view = viewMatrix * world;
  vViewPosition = view.xyz;
  vViewNormal = normalize(normalMatrix * normal);
  gl_Position = projectionMatrix * view;
}
`

/**
 * Light of the surfaces (linear): the hemisphere gives `ground` facing down to `sky` facing up,
 * the headlight adds up to `key` facing it, a glint `specular`. A face turned to the camera
 * and up gets about 1: the part's own colour.
 */
export const SURFACE_LIGHT = { ground: 0.3, sky: 0.55, key: 0.65, specular: 0.08 } as const

/** Where the headlight comes from, in view space: above and left of the camera (unit vector). */
export const KEY_LIGHT_DIRECTION = [-0.2762, 0.4142, 0.8674] as const

/**
 * Faces turned away from the camera (seen from inside): lit at INSIDE_SHADE of the light, and of
 * a see-through surface drawn at BACK_FACE_OPACITY_SHARE of its opacity.
 */
export const INSIDE_SHADE = 0.8
export const BACK_FACE_OPACITY_SHARE = 0.5

/** A number as a GLSL float literal. */
const glsl = (value: number) => value.toFixed(4)

/**
 * The diffuse light factor of the surface shader (without the glint), for a unit normal in
 * view space that faces the camera and the same normal in world space: what the fragment shader
 * multiplies the colour by.
 */
export function surfaceLightFactor(viewNormal: readonly number[], worldNormal: readonly number[]) {
  const [kx, ky, kz] = KEY_LIGHT_DIRECTION
  const diffuse = Math.max(0, viewNormal[0]! * kx + viewNormal[1]! * ky + viewNormal[2]! * kz)
  const up = 0.5 + 0.5 * worldNormal[2]!
  const hemisphere = SURFACE_LIGHT.ground + (SURFACE_LIGHT.sky - SURFACE_LIGHT.ground) * up
  return hemisphere + SURFACE_LIGHT.key * diffuse
}

/** Fragment shader of surfaces: lit colour, lightened by the tint, written as sRGB. */
export const SURFACE_FRAGMENT_SHADER = /* glsl */ `
${clip}
uniform vec3 uColour;
uniform float uOpacity;
uniform vec3 uTint;
uniform float uTintAmount;
varying vec3 vViewPosition;
varying vec3 vViewNormal;

void main() {
  if (clippedAway()) discard;
  vec3 toCamera = isOrthographic ? vec3(0.0, 0.0, 1.0) : normalize(-vViewPosition);
  vec3 normal = normalize(vViewNormal);
  // Two-sided: a face seen from behind (the inside of an open tank) is lit as a front face, a
  // little darker so an opening reads; of a see-through surface it is drawn fainter, so a closed
  // shell reads as one pane, not two.
  float alpha = uOpacity;
  float inside = 1.0;
  if (dot(normal, toCamera) < 0.0) {
    normal = -normal;
    inside = ${glsl(INSIDE_SHADE)};
    if (uOpacity < 1.0) alpha *= ${glsl(BACK_FACE_OPACITY_SHARE)};
  }
  vec3 worldNormal = (vec4(normal, 0.0) * viewMatrix).xyz;
  const vec3 key = vec3(${KEY_LIGHT_DIRECTION.map(glsl).join(', ')});
  float up = 0.5 + 0.5 * worldNormal.z;
  float hemisphere = mix(${glsl(SURFACE_LIGHT.ground)}, ${glsl(SURFACE_LIGHT.sky)}, up);
  float diffuse = max(dot(normal, key), 0.0);
  float specular = pow(max(dot(normal, normalize(key + toCamera)), 0.0), 48.0);
  float light = (hemisphere + ${glsl(SURFACE_LIGHT.key)} * diffuse) * inside;
  vec3 lit = uColour * light + ${glsl(SURFACE_LIGHT.specular)} * specular;
  // A highlight adds its colour as light (a mix towards a far hue would turn muddy).
  gl_FragColor = vec4(lit + uTint * uTintAmount, alpha);
  #include <colorspace_fragment>
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
  #include <colorspace_fragment>
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
  #include <colorspace_fragment>
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
  // The ring: a dark slate (linear), so a marker stands out on any colour.
  vec3 colour = uRing && r2 > 0.45 ? vec3(0.01, 0.013, 0.018) : uColour;
  gl_FragColor = vec4(colour, uOpacity);
  #include <colorspace_fragment>
}
`
