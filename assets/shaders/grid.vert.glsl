// Ground: a static 32x32-cell unit grid mesh scaled around the eye at z = uHeight. The distance
// fade into the sky's haze is computed per vertex (smooth at this tessellation), so grid.frag.glsl
// is a pass-through; render/ground_grid.cpp fades the grid lines with the same functions.
#version 330 core
layout(location = 0) in vec2 aUnit;  // [-1, 1]^2
uniform mat4 uViewProj;
uniform vec2 uCentre;
uniform float uHalfSize;
uniform float uHeight;
uniform vec3 uEye;
uniform float uFadeEnd;   // m from the eye where the ground has become haze
uniform vec3 uHorizon;
uniform vec3 uGroundFar;
out vec3 vHaze;
out float vFog;
void main() {
  vec3 world = vec3(uCentre + aUnit * uHalfSize, uHeight);
  vec3 toPoint = world - uEye;
  float dist = max(length(toPoint), 1e-6);
  // Exactly what sky.vert.glsl shows below the horizon in this direction.
  vHaze = mix(uHorizon, uGroundFar, clamp(-toPoint.z / dist * 25.0, 0.0, 1.0));
  vFog = smoothstep(0.15 * uFadeEnd, 0.9 * uFadeEnd, dist);
  gl_Position = uViewProj * vec4(world, 1.0);
}
