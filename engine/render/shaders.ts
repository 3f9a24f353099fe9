/**
 * GLSL of the point and mesh materials (three's ShaderMaterial, GLSL ES 3.00 under WebGL2).
 * Positions come from three Float32 attributes (px, py, pz: the x, y, z columns as they lie in the
 * data worker's buffer, no interleave); colour values from c0 (a scalar column) or from c0, c1, c2
 * (a vector whose magnitude the shader computes). The value maps through the colour lookup texture:
 * uSchemeRow picks the scheme, uRange the range, so scheme and range changes upload nothing. A
 * shown volume clip is a Uint8 attribute (`mask`, one byte per particle) and a uniform (uMasked).
 */

/** uColourMode: no colour map (the object's base colour), a scalar column, a vector magnitude. */
export const COLOUR_MODES = { none: 0, scalar: 1, magnitude: 2 } as const
/** uShape of the point material. */
export const POINT_SHAPES = { spheres: 0, circles: 1, outlinedCircles: 2 } as const

const colourFunctions = /* glsl */ `
uniform sampler2D uLut;
uniform float uSchemeRow;
uniform float uSchemeCount;
uniform vec2 uRange;
uniform int uColourMode;
uniform vec3 uBaseColour;

vec3 mapColour(float value) {
  if (uColourMode == 0) return uBaseColour;
  // NaN marks a missing value (the format has no nulls): drawn grey.
  if (isnan(value)) return vec3(0.55);
  float span = uRange.y - uRange.x;
  float t = span > 0.0 ? clamp((value - uRange.x) / span, 0.0, 1.0) : 0.0;
  return texture(uLut, vec2((t * 255.0 + 0.5) / 256.0, (uSchemeRow + 0.5) / uSchemeCount)).rgb;
}
`

const clipUniforms = /* glsl */ `
uniform vec4 uClipPlane;
uniform bool uClipEnabled;
`

/** Vertex shader of particles. */
export const POINT_VERTEX_SHADER = /* glsl */ `
attribute float px;
attribute float py;
attribute float pz;
attribute float c0;
attribute float c1;
attribute float c2;
uniform int uColourMode;
uniform float uPointSizeMaxPx;
uniform float uWorldDiameter;
uniform float uPointScale;
uniform float uPixelsPerMetre;
uniform bool uOrthographic;
// A shown volume clip: 1 where the particle is kept (inside, or outside when inverted).
attribute float mask;
uniform bool uMasked;
${clipUniforms}
varying float vValue;

void main() {
  vec3 p = vec3(px, py, pz);
  if ((uClipEnabled && dot(uClipPlane.xyz, p) + uClipPlane.w < 0.0) || (uMasked && mask < 0.5)) {
    // Outside the clip volume or the volume clip: the point is culled before rasterisation.
    gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
    gl_PointSize = 0.0;
    return;
  }
  vec4 viewPosition = modelViewMatrix * vec4(p, 1.0);
  gl_Position = projectionMatrix * viewPosition;
  float diameter = uWorldDiameter * uPointScale * uPixelsPerMetre;
  float size = uOrthographic ? diameter : diameter / max(-viewPosition.z, 1e-6);
  gl_PointSize = clamp(size, 1.0, uPointSizeMaxPx);
  vValue = uColourMode == 2 ? length(vec3(c0, c1, c2)) : c0;
}
`

/** Fragment shader of particles: shaded sphere impostor, flat circle or outlined circle. */
export const POINT_FRAGMENT_SHADER = /* glsl */ `
${colourFunctions}
uniform int uShape;
uniform float uOpacity;
varying float vValue;

void main() {
  vec2 c = gl_PointCoord * 2.0 - 1.0;
  float r2 = dot(c, c);
  if (r2 > 1.0) discard;
  vec3 colour = mapColour(vValue);
  if (uShape == 0) {
    vec3 normal = vec3(c.x, -c.y, sqrt(1.0 - r2));
    float diffuse = max(dot(normal, normalize(vec3(0.4, 0.6, 1.0))), 0.0);
    float highlight = pow(max(dot(normal, normalize(vec3(0.2, 0.3, 1.0))), 0.0), 24.0);
    colour = colour * (0.3 + 0.7 * diffuse) + vec3(0.25 * highlight);
  } else if (uShape == 2 && r2 > 0.55) {
    colour *= 0.3;
  }
  gl_FragColor = vec4(colour, uOpacity);
}
`

/** Vertex shader of wall meshes. */
export const MESH_VERTEX_SHADER = /* glsl */ `
attribute float px;
attribute float py;
attribute float pz;
attribute float c0;
attribute float c1;
attribute float c2;
uniform int uColourMode;
varying float vValue;
varying vec3 vViewPosition;
varying vec3 vWorldPosition;

void main() {
  vec3 p = vec3(px, py, pz);
  vec4 viewPosition = modelViewMatrix * vec4(p, 1.0);
  vViewPosition = viewPosition.xyz;
  vWorldPosition = p;
  gl_Position = projectionMatrix * viewPosition;
  vValue = uColourMode == 2 ? length(vec3(c0, c1, c2)) : c0;
}
`

/** Fragment shader of wall meshes: flat shading from screen-space derivatives (no normal buffer). */
export const MESH_FRAGMENT_SHADER = /* glsl */ `
${colourFunctions}
${clipUniforms}
uniform float uOpacity;
uniform bool uShaded;
varying float vValue;
varying vec3 vViewPosition;
varying vec3 vWorldPosition;

void main() {
  if (uClipEnabled && dot(uClipPlane.xyz, vWorldPosition) + uClipPlane.w < 0.0) discard;
  vec3 colour = mapColour(vValue);
  if (uShaded) {
    vec3 normal = normalize(cross(dFdx(vViewPosition), dFdy(vViewPosition)));
    colour *= 0.35 + 0.65 * abs(normal.z);
  }
  gl_FragColor = vec4(colour, uOpacity);
}
`
