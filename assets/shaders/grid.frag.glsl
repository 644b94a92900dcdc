// Procedural ground grid: minor and major lines of constant pixel width (fwidth), each family
// fading out before its cells get too small to read (no moire), red x axis and green y axis,
// and a distance fade into the sky's far-ground haze.
#version 330 core
in vec3 vWorld;
uniform vec3 uEye;
uniform float uFadeEnd;       // m from the eye where the ground has become haze
uniform float uMinorSpacing;  // m
uniform float uMajorSpacing;  // m
uniform vec3 uGround;
uniform vec3 uGroundFar;
uniform vec3 uMinorColor;
uniform vec3 uMajorColor;
uniform vec3 uAxisX;
uniform vec3 uAxisY;
out vec4 fragColor;

// Coverage of the lines at integer coordinates, widthPx wide; zero once cells shrink below a few px.
float gridLines(vec2 coord, float widthPx) {
  vec2 perPixel = max(fwidth(coord), vec2(1e-6));
  vec2 distPixels = abs(fract(coord - 0.5) - 0.5) / perPixel;
  float coverage = 1.0 - smoothstep(0.5 * widthPx - 0.5, 0.5 * widthPx + 0.5, min(distPixels.x, distPixels.y));
  float cellsTooSmall = smoothstep(0.08, 0.3, max(perPixel.x, perPixel.y));
  return coverage * (1.0 - cellsTooSmall);
}

float axisLine(float coord, float widthPx) {
  float perPixel = max(fwidth(coord), 1e-6);
  return 1.0 - smoothstep(0.5 * widthPx - 0.5, 0.5 * widthPx + 0.5, abs(coord) / perPixel);
}

void main() {
  vec2 p = vWorld.xy;
  vec3 color = uGround;
  color = mix(color, uMinorColor, 0.7 * gridLines(p / uMinorSpacing, 1.0));
  color = mix(color, uMajorColor, 0.8 * gridLines(p / uMajorSpacing, 1.6));
  color = mix(color, uAxisX, axisLine(p.y, 2.0));
  color = mix(color, uAxisY, axisLine(p.x, 2.0));
  float dist = length(vWorld - uEye);
  color = mix(color, uGroundFar, smoothstep(0.2 * uFadeEnd, uFadeEnd, dist));
  float alpha = 1.0 - smoothstep(0.9 * uFadeEnd, uFadeEnd, dist);
  fragColor = vec4(color, alpha);
}
