// Plain-data description of one frame, filled by scenes and consumed by the renderer. No GL, no
// Eigen: scenes and the headless runner link this header without any graphics dependency.
// Conventions: world frame z up, metres; transforms are column-major 4x4 (OpenGL layout).
#pragma once
#include <array>
#include <string>
#include <vector>

namespace varsim {

struct Rgba {
  float r = 0.8f, g = 0.8f, b = 0.8f, a = 1.0f;
};

enum class ShapeKind {
  Box,       // size = full extents (x, y, z)
  Sphere,    // size.x = radius
  Cylinder,  // along local z; size = (radius, radius, length), centred
  Capsule,   // along local z; size = (radius, radius, length between cap centres), centred
  Disc,      // in local xy plane; size.x = radius
  Arrow,     // from local origin along local z; size = (shaft radius, head radius, total length)
};

using Mat4 = std::array<float, 16>;  // column-major
using Vec3f = std::array<float, 3>;

struct ShapeItem {
  ShapeKind kind = ShapeKind::Box;
  Mat4 transform{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  Vec3f size{1, 1, 1};
  Rgba color;
  bool ghost = false;  // drawn translucent (baseline comparisons)
};

struct LineStrip {
  std::vector<Vec3f> points;
  Rgba color;
  float width = 2.0f;  // pixels
  bool loop = false;
};

// Arbitrary triangle surface (e.g. the boat's water); normals per vertex.
struct TriangleMesh {
  std::vector<Vec3f> positions;
  std::vector<Vec3f> normals;
  std::vector<unsigned> indices;
  Rgba color;
};

struct TextLabel {
  Vec3f position;  // world
  std::string text;
  Rgba color{1, 1, 1, 1};
  // A marker for a subject tiny against its surroundings (the orbiting body): with markerPixels > 0
  // the label and a ring of that radius (px) show only while a sphere of markerRadius (m) about the
  // position projects smaller than the ring.
  float markerPixels = 0.0f;
  float markerRadius = 0.0f;
};

// What the camera should follow and how far away it sits by default.
struct CameraHint {
  bool follow = false;
  Vec3f target{0, 0, 0};
  float heading = 0.0f;   // rad, for follow cameras behind vehicles
  float distance = 8.0f;  // m, suggested orbit distance
  // Initial orbit angles (rad, OrbitCamera's yaw about +z from +x and pitch above the horizon) for
  // scenes seen best from one side, e.g. face-on to a swing plane; ignored unless setsAngles.
  bool setsAngles = false;
  float yaw = 0.0f, pitch = 0.0f;
  bool showGround = true;
  float groundHeight = 0.0f;
  // A moving subject in a scene framed as a whole (the orbiting body): follow mode (View menu, C key)
  // centres on it, at a distance that shows a sphere of subjectRadius; ignored unless hasSubject.
  bool hasSubject = false;
  Vec3f subject{0, 0, 0};
  float subjectRadius = 1.0f;  // m
  // The box the subject will move in (a pinned chain's swing below its pin), so the default framing
  // shows the whole motion and not only the first frame; ignored unless hasReach.
  bool hasReach = false;
  Vec3f reachLo{0, 0, 0}, reachHi{0, 0, 0};
};

struct DrawList {
  std::vector<ShapeItem> shapes;
  std::vector<LineStrip> lines;
  std::vector<TriangleMesh> meshes;
  std::vector<TextLabel> labels;
  std::vector<std::string> hud;  // overlay lines (altitude, speed, ...)
  CameraHint camera;

  // Empties the list but keeps the vectors' storage: the app refills the same list every frame
  // (15 001 shapes for a 5000-link ladder) without reallocating it.
  void clear() {
    shapes.clear();
    lines.clear();
    meshes.clear();
    labels.clear();
    hud.clear();
    camera = CameraHint{};
  }
};

}  // namespace varsim
