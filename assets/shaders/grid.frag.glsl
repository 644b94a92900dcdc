// Ground fragments: the flat ground colour hazed per vertex (grid.vert.glsl). The grid itself is
// GL lines on top (render/ground_grid.cpp): a per-pixel procedural grid cost as much as the rest
// of the frame together on CPU rasterizers.
#version 330 core
in vec3 vHaze;
in float vFog;
uniform vec3 uGround;
out vec4 fragColor;
void main() { fragColor = vec4(mix(uGround, vHaze, vFog), 1.0); }
