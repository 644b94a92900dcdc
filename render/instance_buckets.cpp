// InstanceBuckets: the renderer's per-frame instance layout (see instance_buckets.h): levels of detail,
// opaque buckets by (primitive, level), ghosts sorted back to front, one instance array.
#include "render/instance_buckets.h"

#include <algorithm>
#include <cstddef>

namespace varsim::render {

void InstanceBuckets::build(const std::vector<ShapeItem>& shapes, const glm::vec3& eye, const glm::vec3& forward,
                            float pixelsPerRadian, float ghostAlpha) {
  parts_.clear();
  ghostOfPart_.clear();
  for (const ShapeItem& item : shapes) {
    if (!expandShape(item, parts_)) continue;
    ghostOfPart_.resize(parts_.size(), item.ghost ? 1 : 0);
  }
  std::vector<int> bucketCount(std::size_t(kPrimitiveCount * kLodCount), 0);
  chooseLevels(eye, forward, pixelsPerRadian, ghostAlpha, bucketCount);
  layOut(bucketCount);
}

// Levels of detail, the ghosts' alpha, and the count of opaque parts per (primitive, level).
void InstanceBuckets::chooseLevels(const glm::vec3& eye, const glm::vec3& forward, float pixelsPerRadian,
                                   float ghostAlpha, std::vector<int>& bucketCount) {
  lodOfPart_.resize(parts_.size());
  ghosts_.clear();
  for (std::size_t i = 0; i < parts_.size(); ++i) {
    ShapePart& part = parts_[i];
    const float distance = glm::length(part.centre - eye);
    const float near = std::max(distance - part.boundingRadius, 1e-3f);
    // Round parts take the level their nearest point needs; rods that thin become ribbons.
    const int lod = part.primitive == Primitive::Box || useRibbon(part, near, pixelsPerRadian)
                        ? 0
                        : chooseLod(part.curvatureRadius, near, pixelsPerRadian);
    lodOfPart_[i] = lod;
    glm::vec4& c = part.instance.color;
    if (ghostOfPart_[i] && c.a >= 1.0f) c.a = ghostAlpha;  // ghosts are always see-through
    if (c.a < 1.0f)
      ghosts_.push_back({glm::dot(part.centre - eye, forward), int(i), lod});
    else
      ++bucketCount[std::size_t(int(part.primitive) * kLodCount + lod)];
  }
  // Back to front along the view direction; ties keep draw-list order (stable, deterministic).
  std::stable_sort(ghosts_.begin(), ghosts_.end(),
                   [](const GhostKey& a, const GhostKey& b) { return a.depth > b.depth; });
}

// Opaque instances bucket by bucket, then the ghosts in their sorted order.
void InstanceBuckets::layOut(const std::vector<int>& bucketCount) {
  opaqueBuckets_.clear();
  std::vector<int> bucketFill(bucketCount.size(), 0);
  int next = 0;
  for (int k = 0; k < kPrimitiveCount * kLodCount; ++k) {
    bucketFill[std::size_t(k)] = next;
    if (bucketCount[std::size_t(k)] > 0)
      opaqueBuckets_.push_back({k / kLodCount, k % kLodCount, next, bucketCount[std::size_t(k)]});
    next += bucketCount[std::size_t(k)];
  }
  opaqueCount_ = next;
  instances_.resize(std::size_t(opaqueCount_) + ghosts_.size());
  for (std::size_t i = 0; i < parts_.size(); ++i) {
    const ShapePart& part = parts_[i];
    if (part.instance.color.a < 1.0f) continue;
    const std::size_t k = std::size_t(int(part.primitive) * kLodCount + lodOfPart_[i]);
    instances_[std::size_t(bucketFill[k]++)] = part.instance;
  }
  ghostBuckets_.clear();
  for (std::size_t g = 0; g < ghosts_.size(); ++g) {
    const ShapePart& part = parts_[std::size_t(ghosts_[g].partIndex)];
    const int slot = opaqueCount_ + int(g);
    instances_[std::size_t(slot)] = part.instance;
    const int primitive = int(part.primitive), lod = ghosts_[g].lod;
    if (!ghostBuckets_.empty() && ghostBuckets_.back().primitive == primitive && ghostBuckets_.back().lod == lod)
      ++ghostBuckets_.back().count;
    else
      ghostBuckets_.push_back({primitive, lod, slot, 1});
  }
}

}  // namespace varsim::render
