// Pixel-width line segments (GL core has no wide lines): each instance is one segment p0-p1,
// expanded in screen space into a quad with square caps of half the width, so consecutive
// segments of a strip overlap at the joints without gaps. Segments are clipped to the near plane
// before the perspective divide, so strips passing behind the eye do not smear across the screen.
#version 330 core
layout(location = 0) in vec2 aCorner;   // x: 0 at p0, 1 at p1; y: -1 or +1 across
layout(location = 1) in vec3 iP0;
layout(location = 2) in vec3 iP1;
layout(location = 3) in vec4 iColor;
layout(location = 4) in float iWidth;   // pixels

uniform mat4 uViewProj;
uniform vec2 uViewport;                 // pixels

out vec4 vColor;
out float vAcrossPixels;      // signed distance from the centre line, pixels
flat out float vOuterPixels;  // half width + the half-pixel feather

void main() {
  vec4 c0 = uViewProj * vec4(iP0, 1.0);
  vec4 c1 = uViewProj * vec4(iP1, 1.0);
  float d0 = c0.z + c0.w, d1 = c1.z + c1.w;  // signed distance to the near plane (clip space)
  vColor = iColor;
  vAcrossPixels = 0.0;
  vOuterPixels = 0.0;
  if (d0 < 0.0 && d1 < 0.0) {
    gl_Position = vec4(2.0, 2.0, 2.0, 1.0);  // wholly behind: outside the clip volume
    return;
  }
  if (d0 < 0.0) c0 = mix(c0, c1, d0 / (d0 - d1));
  if (d1 < 0.0) c1 = mix(c1, c0, d1 / (d1 - d0));
  vec2 halfViewport = 0.5 * uViewport;
  vec2 s0 = c0.xy / c0.w * halfViewport;
  vec2 s1 = c1.xy / c1.w * halfViewport;
  vec2 along = s1 - s0;
  float len = length(along);
  along = len > 1e-4 ? along / len : vec2(1.0, 0.0);
  vec2 across = vec2(-along.y, along.x);
  // Half a pixel wider on each side for the feathered edge (line.frag.glsl): smooth without MSAA.
  float halfWidth = 0.5 * iWidth + 0.5;
  vAcrossPixels = aCorner.y * halfWidth;
  vOuterPixels = halfWidth;
  vec4 c = aCorner.x < 0.5 ? c0 : c1;
  vec2 offsetPixels = (across * aCorner.y + along * (2.0 * aCorner.x - 1.0)) * halfWidth;
  c.xy += offsetPixels / halfViewport * c.w;
  gl_Position = c;
}
