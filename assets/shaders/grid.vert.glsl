// Ground quad at z = uHeight around the eye, drawn as a 4-vertex strip from gl_VertexID.
#version 330 core
uniform mat4 uViewProj;
uniform vec2 uCentre;
uniform float uHalfSize;
uniform float uHeight;
out vec3 vWorld;
void main() {
  vec2 corner = vec2(float(gl_VertexID & 1), float((gl_VertexID >> 1) & 1)) * 2.0 - 1.0;
  vWorld = vec3(uCentre + corner * uHalfSize, uHeight);
  gl_Position = uViewProj * vec4(vWorld, 1.0);
}
