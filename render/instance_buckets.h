// Per frame, the draw list's shapes as instance runs for the renderer: shapes expanded into parts, each
// part at the level of detail its nearest point needs, opaque parts in one bucket per (primitive, level),
// translucent ones (ghosts) back to front, all laid out in one instance array uploaded at once. GL-free.
#pragma once
#include <vector>

#include <glm/glm.hpp>

#include "render/draw_list.h"
#include "render/shape_instances.h"

namespace varsim::render {

struct InstanceBucket {  // a run of instances drawn with one instanced call
  int primitive, lod;
  int first, count;
};

class InstanceBuckets {
 public:
  // Lays out `shapes` for the camera at `eye` looking along `forward`; pixelsPerRadian is the view's
  // (lodPixelsPerRadian); ghost items whose colour is opaque get ghostAlpha. Shapes that do not expand
  // (non-finite numbers, non-positive sizes) are skipped.
  void build(const std::vector<ShapeItem>& shapes, const glm::vec3& eye, const glm::vec3& forward,
             float pixelsPerRadian, float ghostAlpha);

  // Opaque instances first, bucket by bucket, then the ghosts back to front.
  const std::vector<ShapeInstance>& instances() const { return instances_; }
  const std::vector<InstanceBucket>& opaqueBuckets() const { return opaqueBuckets_; }
  // Consecutive ghosts of one primitive and level share a run; order is back to front.
  const std::vector<InstanceBucket>& ghostBuckets() const { return ghostBuckets_; }
  int opaqueCount() const { return opaqueCount_; }

 private:
  struct GhostKey {
    float depth;
    int partIndex;
    int lod;
  };
  void chooseLevels(const glm::vec3& eye, const glm::vec3& forward, float pixelsPerRadian, float ghostAlpha,
                    std::vector<int>& bucketCount);
  void layOut(const std::vector<int>& bucketCount);

  // Per-frame scratch, kept to avoid reallocation.
  std::vector<ShapePart> parts_;
  std::vector<ShapeInstance> instances_;
  std::vector<InstanceBucket> opaqueBuckets_, ghostBuckets_;
  std::vector<GhostKey> ghosts_;
  std::vector<int> lodOfPart_;
  std::vector<char> ghostOfPart_;
  int opaqueCount_ = 0;
};

}  // namespace varsim::render
