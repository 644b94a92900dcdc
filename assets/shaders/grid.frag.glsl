// Procedural ground grid: 1 px minor lines every uMinorSpacing, 1.6 px major lines every
// uMajorSpacing, each family fading out before its cells shrink below ~4 px (no moire), 2 px red
// x axis and green y axis, then the per-vertex haze. Opaque: complete haze before the quad's edge.
#version 330 core
in vec3 vWorld;
in vec3 vHaze;
in float vFog;
uniform float uMinorSpacing;  // m
uniform float uMajorSpacing;  // m
uniform vec3 uGround;
uniform vec3 uMinorColor;
uniform vec3 uMajorColor;
uniform vec3 uAxisX;
uniform vec3 uAxisY;
out vec4 fragColor;

// Line coverage for lines at multiples of spacing, widthPx wide, from metres per pixel.
float gridLines(vec2 p, vec2 metresPerPixel, float spacing, float widthPx) {
  vec2 distPixels = abs(fract(p / spacing + 0.5) - 0.5) * spacing / metresPerPixel;
  float coverage = clamp(0.5 * widthPx + 0.5 - min(distPixels.x, distPixels.y), 0.0, 1.0);
  float cellPixels = spacing / max(metresPerPixel.x, metresPerPixel.y);
  return coverage * clamp(cellPixels * 0.125 - 0.5, 0.0, 1.0);
}

void main() {
  vec2 p = vWorld.xy;
  vec2 metresPerPixel = max(fwidth(p), vec2(1e-6));
  vec3 color = mix(uGround, uMinorColor, 0.7 * gridLines(p, metresPerPixel, uMinorSpacing, 1.0));
  color = mix(color, uMajorColor, 0.8 * gridLines(p, metresPerPixel, uMajorSpacing, 1.6));
  vec2 axisPixels = abs(p) / metresPerPixel;
  color = mix(color, uAxisX, clamp(1.5 - axisPixels.y, 0.0, 1.0));
  color = mix(color, uAxisY, clamp(1.5 - axisPixels.x, 0.0, 1.0));
  fragColor = vec4(mix(color, vHaze, vFog), 1.0);
}
