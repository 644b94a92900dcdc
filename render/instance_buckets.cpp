// InstanceBuckets: the renderer's per-frame instance layout (see instance_buckets.h): levels of detail,
// opaque buckets by (primitive, level), ghosts sorted back to front, one instance array.
#include "render/instance_buckets.h"

#include <algorithm>
#include <cstddef>

namespace varsim::render {

void InstanceBuckets::build(const std::vector<ShapeItem>& shapes, const BucketView& view, float ghostAlpha) {
  parts_.clear();
  ghostOfPart_.clear();
  for (const ShapeItem& item : shapes) {
    if (!expandShape(item, parts_)) continue;
    ghostOfPart_.resize(parts_.size(), item.ghost ? 1 : 0);
  }
  std::vector<int> bucketCount(std::size_t(kPrimitiveCount * kLodCount), 0);
  chooseLevels(view, ghostAlpha, bucketCount);
  layOut(bucketCount);
}

// Levels of detail, the ghosts' alpha, and the count of opaque parts per (primitive, level).
void InstanceBuckets::chooseLevels(const BucketView& view, float ghostAlpha, std::vector<int>& bucketCount) {
  lodOfPart_.resize(parts_.size());
  ghosts_.clear();
  dots_.reset(view.width, view.height);
  droppedDots_ = culled_ = 0;
  // Gribb-Hartmann: the planes are sums and differences of viewProj's last row and the others.
  const glm::mat4 t = glm::transpose(view.viewProj);
  for (int k = 0; k < 6; ++k) {
    const glm::vec4 p = t[3] + (k % 2 == 0 ? 1.0f : -1.0f) * t[k / 2];
    planes_[k] = p / glm::length(glm::vec3(p));
  }
  for (std::size_t i = 0; i < parts_.size(); ++i) {
    ShapePart& part = parts_[i];
    const float distance = glm::length(part.centre - view.eye);
    if (view.cullOffView && offView(part, distance, view.pixelsPerRadian)) {
      lodOfPart_[i] = kDropped;  // neither counted in a bucket nor sorted as a ghost: layOut skips it
      ++culled_;
      continue;
    }
    const float near = std::max(distance - part.boundingRadius, 1e-3f);
    // Round parts take the level their nearest point needs; rods that thin become ribbons.
    const bool ribbon = part.primitive != Primitive::Box && useRibbon(part, near, view.pixelsPerRadian);
    glm::vec4& c = part.instance.color;
    if (ghostOfPart_[i] && c.a >= 1.0f) c.a = ghostAlpha;  // ghosts are always see-through
    if (c.a < 1.0f) {
      lodOfPart_[i] = ribbon || part.primitive == Primitive::Box ? 0 : chooseLod(part.curvatureRadius, near, view.pixelsPerRadian);
      ghosts_.push_back({glm::dot(part.centre - view.eye, view.forward), int(i), lodOfPart_[i]});
      continue;
    }
    lodOfPart_[i] = opaqueLevel(part, view, near, ribbon);
    if (lodOfPart_[i] == kDropped) ++droppedDots_;
    else ++bucketCount[std::size_t(int(part.primitive) * kLodCount + lodOfPart_[i])];
  }
  // Back to front along the view direction; ties keep draw-list order (stable, deterministic).
  std::stable_sort(ghosts_.begin(), ghosts_.end(),
                   [](const GhostKey& a, const GhostKey& b) { return a.depth > b.depth; });
}

bool InstanceBuckets::offView(const ShapePart& part, float distance, float pixelsPerRadian) const {
  const float reach = part.boundingRadius + kCullMarginPixels * distance / pixelsPerRadian;
  for (const glm::vec4& p : planes_)
    if (glm::dot(glm::vec3(p), part.centre) + p.w < -reach) return true;
  return false;
}

int InstanceBuckets::opaqueLevel(ShapePart& part, const BucketView& view, float near, bool ribbon) {
  if (part.primitive == Primitive::Box) return 0;
  if (!ribbon) return chooseLod(part.curvatureRadius, near, view.pixelsPerRadian);
  if (part.boundingRadius * view.pixelsPerRadian > kDotMaxPixels * near) return 0;
  if (!dots_.claim(view.viewProj * glm::vec4(part.centre, 1.0f))) return kDropped;
  // A square of the ribbons' least width (2 kRibbonMinPixels, which useRibbon gave it): it covers its pixel.
  const float radius = part.instance.scale.x;
  part.instance.halfLength = std::max(part.instance.halfLength, radius);
  return 0;
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
    if (part.instance.color.a < 1.0f || lodOfPart_[i] == kDropped) continue;
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
