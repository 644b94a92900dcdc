// Per frame, the draw list's shapes as instance runs for the renderer: shapes expanded into parts, each
// part at the level of detail its nearest point needs, opaque rods smaller than a pixel as one dot per pixel,
// opaque parts in one bucket per (primitive, level), translucent ones (ghosts) back to front, all laid out in one
// instance array uploaded at once. GL-free.
#pragma once
#include <vector>

#include <glm/glm.hpp>

#include "render/draw_list.h"
#include "render/pixel_cells.h"
#include "render/shape_instances.h"

namespace varsim::render {

struct InstanceBucket {  // a run of instances drawn with one instanced call
  int primitive, lod;
  int first, count;
};

// The view the parts are laid out for: eye, view direction, viewProj (world -> clip), the view's size in pixels
// and its pixelsPerRadian (lodPixelsPerRadian). cullOffView: parts wholly outside the view are skipped (only when
// nothing else draws them: drop shadows of parts off the view can fall inside it).
struct BucketView {
  glm::vec3 eye, forward;
  glm::mat4 viewProj;
  int width, height;
  float pixelsPerRadian;
  bool cullOffView = false;
};

// A part is off the view when its bounding sphere, grown by this many pixels at its distance (the ribbons' least
// width and the dots' squares reach beyond the bound), lies wholly outside one of the view frustum's planes.
constexpr float kCullMarginPixels = 2.0f;

// An opaque rod whose whole extent (its bounding radius) projects to at most this radius in pixels is a dot: it
// is drawn only if no earlier dot of the draw list fell in the same pixel (PixelCells), as a ribbon square of the
// ribbons' least width, 2 kRibbonMinPixels (it covers its pixel). A ladder framed whole keeps one rod in ~75
// (N = 10 000) and looks the same, a line in the rods' colours: the dropped rods lay under the kept one's square.
constexpr float kDotMaxPixels = 0.5f;

class InstanceBuckets {
 public:
  // Lays out `shapes` for `view`; ghost items whose colour is opaque get ghostAlpha. Shapes that do not expand
  // (non-finite numbers, non-positive sizes) are skipped, and so are dots on a pixel already drawn (kDotMaxPixels).
  void build(const std::vector<ShapeItem>& shapes, const BucketView& view, float ghostAlpha);

  // Opaque instances first, bucket by bucket, then the ghosts back to front.
  const std::vector<ShapeInstance>& instances() const { return instances_; }
  const std::vector<InstanceBucket>& opaqueBuckets() const { return opaqueBuckets_; }
  // Consecutive ghosts of one primitive and level share a run; order is back to front.
  const std::vector<InstanceBucket>& ghostBuckets() const { return ghostBuckets_; }
  int opaqueCount() const { return opaqueCount_; }
  int droppedDots() const { return droppedDots_; }  // parts of the last build skipped as dots on a drawn pixel
  int culled() const { return culled_; }            // parts of the last build skipped as off the view (cullOffView)

 private:
  struct GhostKey {
    float depth;
    int partIndex;
    int lod;
  };
  void chooseLevels(const BucketView& view, float ghostAlpha, std::vector<int>& bucketCount);
  // The level of opaque part i, or kDropped for a dot on a pixel already drawn (kDotMaxPixels).
  int opaqueLevel(ShapePart& part, const BucketView& view, float near, bool ribbon);
  static constexpr int kDropped = -1;
  void layOut(const std::vector<int>& bucketCount);

  // Per-frame scratch, kept to avoid reallocation.
  std::vector<ShapePart> parts_;
  std::vector<ShapeInstance> instances_;
  std::vector<InstanceBucket> opaqueBuckets_, ghostBuckets_;
  std::vector<GhostKey> ghosts_;
  std::vector<int> lodOfPart_;
  std::vector<char> ghostOfPart_;
  PixelCells dots_;
  glm::vec4 planes_[6];  // the view frustum's planes (inside: dot(n, p) + d >= 0, n unit), set per build
  bool offView(const ShapePart& part, float distance, float pixelsPerRadian) const;
  int opaqueCount_ = 0, droppedDots_ = 0, culled_ = 0;
};

}  // namespace varsim::render
