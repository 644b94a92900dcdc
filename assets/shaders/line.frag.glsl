// Line fragments: flat colour with a one-pixel feathered edge (coverage falls from 1 to 0 over
// the outer pixel), so lines stay smooth with or without MSAA. Straight alpha.
#version 330 core
in vec4 vColor;
in float vAcrossPixels;
flat in float vOuterPixels;
out vec4 fragColor;
void main() {
  float coverage = clamp(vOuterPixels - abs(vAcrossPixels), 0.0, 1.0);
  fragColor = vec4(vColor.rgb, vColor.a * coverage);
}
