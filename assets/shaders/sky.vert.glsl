// Sky dome: a static ring mesh of unit directions around the eye (render/gl_geometry.cpp), coloured
// per vertex by elevation so the fragment shader is a pass-through (full-screen shading is the
// costliest part of a frame on software GL). Drawn at the far plane after the opaque scene with
// GL_LEQUAL, so only pixels nothing else covered are shaded.
#version 330 core
layout(location = 0) in vec3 aDirection;  // unit, world frame
uniform mat4 uViewProj;
uniform vec3 uZenith;
uniform vec3 uHorizon;
uniform vec3 uGroundFar;
out vec3 vColor;
void main() {
  float up = clamp(aDirection.z, 0.0, 1.0);
  float s = sqrt(up);
  // Above: eased blend to the zenith; below: far-ground haze reached 2.3 degrees under the
  // horizon (grid.vert.glsl fades the ground into the same function).
  vColor = aDirection.z >= 0.0 ? mix(uHorizon, uZenith, s * (2.0 - s))
                               : mix(uHorizon, uGroundFar, clamp(-aDirection.z * 25.0, 0.0, 1.0));
  // A direction is a point at infinity (w = 0): no translation; depth pinned just inside the far plane.
  vec4 clip = uViewProj * vec4(aDirection, 0.0);
  gl_Position = vec4(clip.xy, 0.999999 * clip.w, clip.w);
}
