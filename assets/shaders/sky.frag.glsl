// Sky gradient by view elevation: zenith -> horizon above, far-ground haze below (the ground grid
// fades into this haze, so the horizon is seamless). A tiny dither hides 8-bit banding.
#version 330 core
in vec2 vNdc;
uniform mat4 uInvViewProj;
uniform vec3 uZenith;
uniform vec3 uHorizon;
uniform vec3 uGroundFar;
out vec4 fragColor;

void main() {
  vec4 nearPoint = uInvViewProj * vec4(vNdc, -1.0, 1.0);
  vec4 farPoint = uInvViewProj * vec4(vNdc, 1.0, 1.0);
  vec3 dir = normalize(farPoint.xyz / farPoint.w - nearPoint.xyz / nearPoint.w);
  float elevation = dir.z;
  vec3 color = elevation >= 0.0 ? mix(uHorizon, uZenith, pow(clamp(elevation, 0.0, 1.0), 0.6))
                                : mix(uHorizon, uGroundFar, smoothstep(0.0, 0.04, -elevation));
  float dither = fract(sin(dot(gl_FragCoord.xy, vec2(12.9898, 78.233))) * 43758.5453) - 0.5;
  fragColor = vec4(color + dither / 255.0, 1.0);
}
