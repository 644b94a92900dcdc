// Frame signatures (render/frame_signature.h): a frame is skipped only when its signature equals the
// last drawn one, so every field the renderer reads must change it, and equal lists must agree.
#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "render/frame_signature.h"

using varsim::DrawList;
using varsim::render::FrameSignature;

namespace {

DrawList sampleList() {
  DrawList list;
  for (int i = 0; i < 50; ++i) {
    varsim::ShapeItem item;
    item.kind = varsim::ShapeKind::Capsule;
    item.transform[12] = float(i);
    item.size = {0.1f, 0.1f, 1.0f};
    item.color = {0.2f, 0.4f, float(i) / 50.0f, 1.0f};
    list.shapes.push_back(item);
  }
  varsim::LineStrip strip;
  strip.points = {{0, 0, 0}, {1, 2, 3}, {4, 5, 6}};
  list.lines.push_back(strip);
  varsim::TriangleMesh mesh;
  mesh.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  mesh.normals = {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
  mesh.indices = {0, 1, 2};
  list.meshes.push_back(mesh);
  list.labels.push_back({{0, 0, 0}, "label", {1, 1, 1, 1}});
  list.hud.push_back("hud line");
  return list;
}

std::uint64_t signature(const DrawList& list) {
  FrameSignature s;
  varsim::render::addDrawList(s, list);
  return s.value();
}

}  // namespace

TEST_CASE("equal draw lists have equal signatures; an empty list has one too") {
  CHECK(signature(sampleList()) == signature(sampleList()));
  CHECK(signature(DrawList{}) == signature(DrawList{}));
  CHECK(signature(DrawList{}) != signature(sampleList()));
}

TEST_CASE("every field the renderer draws changes the signature") {
  const std::uint64_t base = signature(sampleList());
  const std::vector<std::function<void(DrawList&)>> edits = {
      [](DrawList& l) { l.shapes[7].transform[13] += 1e-6f; },
      [](DrawList& l) { l.shapes[49].color.a = 0.5f; },
      [](DrawList& l) { l.shapes[0].kind = varsim::ShapeKind::Cylinder; },
      [](DrawList& l) { l.shapes[3].size[2] = 2.0f; },
      [](DrawList& l) { l.shapes[3].ghost = true; },
      [](DrawList& l) { l.shapes.pop_back(); },
      [](DrawList& l) { l.lines[0].points[1][0] = 1.5f; },
      [](DrawList& l) { l.lines[0].width = 3.0f; },
      [](DrawList& l) { l.lines[0].loop = true; },
      [](DrawList& l) { l.lines.push_back(varsim::LineStrip{}); },
      [](DrawList& l) {
        l.meshes[0].indices = {0, 2, 1};
      },
      [](DrawList& l) {
        l.meshes[0].normals[2] = {0, 1, 0};
      },
      [](DrawList& l) { l.meshes[0].color.r = 0.0f; },
      [](DrawList& l) { l.camera.showGround = !l.camera.showGround; },
      [](DrawList& l) { l.camera.groundHeight = -1.0f; },
  };
  for (std::size_t i = 0; i < edits.size(); ++i) {
    DrawList list = sampleList();
    edits[i](list);
    INFO("edit " << i);
    CHECK(signature(list) != base);
  }
}

TEST_CASE("labels and HUD lines (drawn by the UI) do not change it; field boundaries count") {
  DrawList list = sampleList();
  list.labels.clear();
  list.hud = {"other"};
  CHECK(signature(list) == signature(sampleList()));
  // The same bytes split differently between two fields are two different frames.
  FrameSignature a, b;
  const float v[3] = {1, 2, 3};
  a.add(v, 4);
  a.add(v + 1, 8);
  b.add(v, 8);
  b.add(v + 2, 4);
  CHECK(a.value() != b.value());
}
