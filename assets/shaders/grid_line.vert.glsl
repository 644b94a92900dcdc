// Ground grid lines (render/ground_grid.cpp): 1-px GL lines with per-vertex colour, which the CPU
// has already faded and hazed; the cheapest way to draw a grid on a CPU rasterizer.
#version 330 core
layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec4 aColor;
uniform mat4 uViewProj;
out vec4 vColor;
void main() {
  vColor = aColor;
  gl_Position = uViewProj * vec4(aPosition, 1.0);
}
