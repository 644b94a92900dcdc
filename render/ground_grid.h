// Ground grid as coloured line vertices (CPU, GL-free, unit-tested): minor and major lines and the
// x/y axes around the eye, each family faded out before its cells shrink below ~4 px (no moire)
// and hazed with distance exactly like the ground and sky. Drawn as 1-px GL lines over a flat
// ground: a per-pixel procedural grid cost as much as the rest of a frame on CPU rasterizers.
#pragma once
#include <vector>

#include <glm/glm.hpp>

namespace varsim::render {

struct GridVertex {  // attributes of grid_line.vert.glsl; consecutive pairs are GL_LINES segments
  glm::vec3 position;
  glm::vec4 color;  // straight alpha
};

struct GroundGridStyle {
  float minorSpacing = 1.0f, majorSpacing = 10.0f;   // m
  float minorStrength = 0.55f, majorStrength = 0.8f;  // opacity on the bare ground
  glm::vec3 minorColor{0.56f, 0.58f, 0.61f}, majorColor{0.44f, 0.46f, 0.50f};
  glm::vec3 axisXColor{0.85f, 0.25f, 0.22f}, axisYColor{0.25f, 0.65f, 0.28f};
  glm::vec3 horizon{0.86f, 0.89f, 0.93f}, groundFar{0.80f, 0.82f, 0.84f};  // haze (sky.vert.glsl)
};

struct GroundGridView {
  glm::vec3 eye{0, 0, 10};
  float groundHeight = 0.0f;
  float fadeEnd = 60.0f;           // m from the eye where the ground has become haze
  float pixelsPerRadian = 900.0f;  // lodPixelsPerRadian(viewport height, fovY)
  // Segments wholly outside this view frustum are dropped (most of the disc around the eye is
  // behind or beside the camera); identity keeps everything inside the clip cube [-1, 1]^3.
  bool cullToView = false;
  glm::mat4 viewProj{1.0f};
};

// Haze colour of the ground seen in direction eye -> point (sky.vert.glsl below the horizon).
glm::vec3 groundHaze(const GroundGridStyle& style, const glm::vec3& eye, const glm::vec3& point);
// Fraction of haze at slant distance d (grid.vert.glsl).
float groundFog(float fadeEnd, float distance);
// Opacity factor of a family at horizontal distance r from the eye's foot point: 1 while its cells
// span >= 12 px on screen, 0 below 4 px (seen from height h at slant distance D a cell spans about
// spacing * pixelsPerRadian * h / D^2 px along the view).
float gridFamilyFade(float spacing, float pixelsPerRadian, float eyeHeight, float horizontalDistance);
// Horizontal radius beyond which a family is invisible (fade 0) or hazed out, whichever is nearer.
float gridFamilyRadius(float spacing, float pixelsPerRadian, float eyeHeight, float fadeEnd);

// Appends the grid's line vertices (pairs); returns the number of segments appended. Non-finite
// or non-positive view numbers append nothing.
int appendGroundGrid(const GroundGridView& view, const GroundGridStyle& style, std::vector<GridVertex>& out);

}  // namespace varsim::render
