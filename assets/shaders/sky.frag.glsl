// Sky dome fragments: the per-vertex gradient as interpolated (see sky.vert.glsl).
#version 330 core
in vec3 vColor;
out vec4 fragColor;
void main() { fragColor = vec4(vColor, 1.0); }
