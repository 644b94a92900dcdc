// GL-free render geometry: the unit primitive meshes (closed, outward, exact or converging volumes),
// the vertex placement the shader mirrors, shape -> part expansion (arrow split, bounds, bad input),
// level-of-detail choice, ribbons for thin rods, and line strip -> segment expansion.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <random>
#include <tuple>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/type_ptr.hpp>

#include "render/line_segments.h"
#include "render/primitive_mesh.h"
#include "render/shape_instances.h"
#include "tests/log_log_slope.h"

using varsim::test::logLogSlope;

using namespace varsim::render;

namespace {
constexpr double kPi = 3.14159265358979323846;

struct Placed {
  std::vector<glm::dvec3> positions, normals;
  std::vector<std::uint32_t> indices;
};

Placed place(const MeshData& m, glm::vec3 scale = glm::vec3(1), float halfLength = 0.0f) {
  Placed p;
  for (const MeshVertex& v : m.vertices) {
    p.positions.push_back(glm::dvec3(placeVertex(v, scale, halfLength)));
    p.normals.push_back(glm::dvec3(placeNormal(v, scale)));
  }
  p.indices = m.indices;
  return p;
}

// Signed volume by the divergence theorem: sum over triangles of a . (b x c) / 6.
double signedVolume(const Placed& p) {
  double v = 0.0;
  for (std::size_t t = 0; t < p.indices.size(); t += 3)
    v += glm::dot(p.positions[p.indices[t]], glm::cross(p.positions[p.indices[t + 1]], p.positions[p.indices[t + 2]]));
  return v / 6.0;
}

// Closed and consistently oriented: after welding coincident positions, every directed edge of a
// non-degenerate triangle appears exactly once and its reverse exactly once.
bool closedAndOriented(const Placed& p) {
  std::map<std::tuple<long, long, long>, int> weld;
  std::vector<int> id(p.positions.size());
  for (std::size_t i = 0; i < p.positions.size(); ++i) {
    const glm::dvec3 q = glm::round(p.positions[i] * 1e6);
    id[i] = weld.emplace(std::make_tuple(long(q.x), long(q.y), long(q.z)), int(weld.size())).first->second;
  }
  std::map<std::pair<int, int>, int> edges;
  for (std::size_t t = 0; t < p.indices.size(); t += 3) {
    const int a = id[p.indices[t]], b = id[p.indices[t + 1]], c = id[p.indices[t + 2]];
    if (a == b || b == c || c == a) continue;  // pole triangles of zero area
    ++edges[{a, b}];
    ++edges[{b, c}];
    ++edges[{c, a}];
  }
  for (const auto& [edge, count] : edges) {
    const auto reverse = edges.find({edge.second, edge.first});
    if (count != 1 || reverse == edges.end() || reverse->second != 1) return false;
  }
  return !edges.empty();
}

// Smallest cosine between a triangle's geometric normal and its vertices' normals.
double worstNormalAgreement(const Placed& p) {
  double worst = 1.0;
  for (std::size_t t = 0; t < p.indices.size(); t += 3) {
    const glm::dvec3 a = p.positions[p.indices[t]], b = p.positions[p.indices[t + 1]], c = p.positions[p.indices[t + 2]];
    const glm::dvec3 n = glm::cross(b - a, c - a);
    if (glm::length(n) < 1e-12) continue;
    for (int k = 0; k < 3; ++k) worst = std::min(worst, glm::dot(glm::normalize(n), p.normals[p.indices[t + k]]));
  }
  return worst;
}

varsim::ShapeItem item(varsim::ShapeKind kind, const glm::mat4& m, varsim::Vec3f size) {
  varsim::ShapeItem s;
  s.kind = kind;
  std::copy(glm::value_ptr(m), glm::value_ptr(m) + 16, s.transform.begin());
  s.size = size;
  return s;
}
}  // namespace

TEST_CASE("PrimitivesAreClosedOutwardAndUnitNormal") {
  const glm::vec3 scales[3] = {glm::vec3(1), glm::vec3(0.3f, 0.7f, 2.0f), glm::vec3(2.0f, 2.0f, 0.5f)};
  for (int kind = 0; kind < kPrimitiveCount; ++kind)
    for (int lod = 0; lod < kLodCount; ++lod)
      for (const glm::vec3& scale : scales) {
        if (Primitive(kind) == Primitive::Ribbon) continue;  // an open strip by design (RibbonsFaceTheEye)
        CAPTURE(kind);
        CAPTURE(lod);
        const Placed p = place(makePrimitive(Primitive(kind), lod), scale, 0.8f);
        // The disc's two faces share their outline, which welding cannot tell apart; it is
        // checked on its own below.
        if (Primitive(kind) != Primitive::Disc) CHECK(closedAndOriented(p));
        for (const glm::dvec3& n : p.normals) CHECK(glm::length(n) == doctest::Approx(1.0).epsilon(1e-6));
        // Outward winding: positive volume (the two-faced disc encloses none).
        if (Primitive(kind) == Primitive::Disc) CHECK(std::abs(signedVolume(p)) < 1e-12);
        else CHECK(signedVolume(p) > 0.0);
        // Vertex normals lean the same way as the triangles they shade (also after strong
        // anisotropic scaling of the coarsest level: placeNormal is the inverse transpose).
        // The 3-segment level (rods about a pixel wide) is only checked unscaled: its smooth
        // normals sit 60 degrees from the faces, so strong anisotropic scaling may flip them.
        if (kLodSegments[lod] >= 6) CHECK(worstNormalAgreement(p) > 0.1);
        else if (scale == scales[0]) CHECK(worstNormalAgreement(p) > 0.4);
      }
}

TEST_CASE("DiscHasTwoEqualOpposedFaces") {
  for (int lod = 0; lod < kLodCount; ++lod) {
    const int n = kLodSegments[lod];
    const Placed p = place(makeDisc(n), {1.5f, 1.5f, 1.0f});
    glm::dvec3 areaVector(0.0);  // sum of oriented triangle areas: zero for two opposed faces
    double upArea = 0.0;
    for (std::size_t t = 0; t < p.indices.size(); t += 3) {
      const glm::dvec3 a = p.positions[p.indices[t]], b = p.positions[p.indices[t + 1]], c = p.positions[p.indices[t + 2]];
      const glm::dvec3 twiceArea = glm::cross(b - a, c - a);
      areaVector += twiceArea / 2.0;
      if (twiceArea.z > 0) upArea += twiceArea.z / 2.0;
      CHECK(a.z == 0.0);
    }
    CHECK(glm::length(areaVector) < 1e-12);
    CHECK(upArea == doctest::Approx(0.5 * n * std::sin(2 * kPi / n) * 1.5 * 1.5).epsilon(1e-6));
    CHECK(worstNormalAgreement(p) == doctest::Approx(1.0));
  }
}

TEST_CASE("PrimitiveVolumesMatchTheirPolyhedra") {
  // Exact for flat-sided shapes: box, n-gon prism (cylinder), n-gon pyramid (cone).
  CHECK(signedVolume(place(makeBox(), {1, 2, 3})) == doctest::Approx(6.0).epsilon(1e-12));
  for (int lod = 0; lod < kLodCount; ++lod) {
    const int n = kLodSegments[lod];
    const double polygonArea = 0.5 * n * std::sin(2 * kPi / n);
    const double r = 0.4, length = 1.7;
    CHECK(signedVolume(place(makeCylinder(n), {float(r), float(r), 1.0f}, float(length / 2))) ==
          doctest::Approx(polygonArea * r * r * length).epsilon(1e-6));
    CHECK(signedVolume(place(makeCone(n), {float(r), float(r), 0.9f})) ==
          doctest::Approx(polygonArea * r * r * 0.9 / 3).epsilon(1e-6));
  }
}

TEST_CASE("RoundPrimitivesConvergeAtSecondOrder") {
  // Inscribed polygons lose area ~ (2 pi / n)^2: sphere and capsule volumes converge with slope -2.
  std::vector<double> segments, sphereError, capsuleError;
  const double r = 0.5, halfLength = 0.75;
  const double capsuleExact = kPi * r * r * 2 * halfLength + 4.0 / 3.0 * kPi * r * r * r;
  for (int lod = kLodCount - 1; lod >= 0; --lod) {
    const int n = kLodSegments[lod];
    if (n < 6) continue;  // the 3-segment level is far from the asymptotic regime
    segments.push_back(n);
    sphereError.push_back(4.0 / 3.0 * kPi - signedVolume(place(makeSphere(n))));
    capsuleError.push_back(capsuleExact - signedVolume(place(makeCapsule(n), glm::vec3(float(r)), float(halfLength))));
  }
  const double sphereSlope = logLogSlope(segments, sphereError), capsuleSlope = logLogSlope(segments, capsuleError);
  MESSAGE("volume error slope vs segments: sphere " << sphereSlope << ", capsule " << capsuleSlope
                                                    << "; finest errors " << sphereError.back() << ", "
                                                    << capsuleError.back());
  CHECK(sphereSlope == doctest::Approx(-2.0).epsilon(0.1));
  CHECK(capsuleSlope == doctest::Approx(-2.0).epsilon(0.15));
  for (double e : sphereError) CHECK(e > 0.0);  // inscribed: always smaller
  CHECK(sphereError.back() / (4.0 / 3.0 * kPi) < 0.02);
}

TEST_CASE("CapsuleStaysRoundAtAnyLength") {
  // Every vertex sits at distance r from the core segment, whatever the length: the caps are
  // shifted, never stretched.
  for (float halfLength : {0.0f, 0.3f, 5.0f}) {
    const float r = 0.2f;
    const Placed p = place(makeCapsule(kLodSegments[0]), glm::vec3(r), halfLength);
    double worst = 0.0;
    for (const glm::dvec3& q : p.positions) {
      const double zc = std::clamp(q.z, -double(halfLength), double(halfLength));
      worst = std::max(worst, std::abs(glm::length(q - glm::dvec3(0, 0, zc)) - r));
    }
    CHECK(worst < 1e-6);
  }
}

TEST_CASE("ArrowSplitsIntoShaftAndHead") {
  std::vector<ShapePart> parts;
  REQUIRE(expandShape(item(varsim::ShapeKind::Arrow, glm::mat4(1), {0.05f, 0.12f, 2.0f}), parts));
  REQUIRE(parts.size() == 2);
  const ShapePart& shaft = parts[0];
  const ShapePart& head = parts[1];
  CHECK(shaft.primitive == Primitive::Cylinder);
  CHECK(head.primitive == Primitive::Cone);
  const float headLength = kArrowHeadLengthPerRadius * 0.12f;
  CHECK(head.instance.scale.z == doctest::Approx(headLength));
  CHECK(2.0f * shaft.instance.halfLength + head.instance.scale.z == doctest::Approx(2.0f));
  CHECK(head.instance.model[3].z == doctest::Approx(2.0f - headLength));  // head base
  CHECK(shaft.instance.model[3].z == doctest::Approx(0.5f * (2.0f - headLength)));
  // A short arrow keeps a shaft: the head takes at most half the length.
  parts.clear();
  REQUIRE(expandShape(item(varsim::ShapeKind::Arrow, glm::mat4(1), {0.05f, 0.12f, 0.2f}), parts));
  REQUIRE(parts.size() == 2);
  CHECK(parts[1].instance.scale.z == doctest::Approx(kArrowMaxHeadFraction * 0.2f));
}

TEST_CASE("PartBoundsEncloseTheirVertices") {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(0.05f, 1.0f), a(-3.0f, 3.0f);
  for (int trial = 0; trial < 60; ++trial) {
    const auto kind = varsim::ShapeKind(trial % 6);
    glm::mat4 m = glm::translate(glm::mat4(1), glm::vec3(a(rng), a(rng), a(rng)));
    m = glm::rotate(m, a(rng), glm::normalize(glm::vec3(a(rng), a(rng), a(rng) + 0.01f)));
    if (trial % 5 == 0) m = glm::scale(m, glm::vec3(1.0f, 2.0f, 0.5f));  // scaled transforms too
    std::vector<ShapePart> parts;
    REQUIRE(expandShape(item(kind, m, {u(rng), u(rng), 2 * u(rng)}), parts));
    for (const ShapePart& part : parts) {
      const MeshData mesh = makePrimitive(part.primitive, 0);
      for (const MeshVertex& v : mesh.vertices) {
        const glm::vec3 world = glm::vec3(part.instance.model * glm::vec4(placeVertex(v, part.instance.scale, part.instance.halfLength), 1));
        CHECK(glm::length(world - part.centre) <= part.boundingRadius * (1 + 1e-5f));
      }
      // worldNormal (the shader's cofactor formula) is the normalized inverse transpose, so
      // world normals stay perpendicular to world tangents under scaled transforms.
      const glm::mat3 inverseTranspose = glm::transpose(glm::inverse(glm::mat3(part.instance.model)));
      for (const MeshVertex& v : mesh.vertices) {
        const glm::vec3 n = placeNormal(v, part.instance.scale);
        const glm::vec3 expected = glm::normalize(inverseTranspose * n);
        CHECK(glm::length(worldNormal(part.instance.model, n) - expected) < 1e-4f);
      }
    }
  }
}

TEST_CASE("WorldNormalKeepsMirroredTransformsOutward") {
  const glm::mat4 mirror = glm::scale(glm::mat4(1), glm::vec3(-1.0f, 2.0f, 1.0f));
  // The +x face of a box ends up facing -x after mirroring x; its normal must follow.
  CHECK(glm::length(worldNormal(mirror, {1, 0, 0}) - glm::vec3(-1, 0, 0)) < 1e-6f);
  CHECK(glm::length(worldNormal(mirror, {0, 1, 0}) - glm::vec3(0, 1, 0)) < 1e-6f);
  const glm::mat4 rotation = glm::rotate(glm::mat4(1), 0.7f, glm::vec3(0, 0, 1));
  CHECK(glm::length(worldNormal(rotation, {1, 0, 0}) - glm::vec3(std::cos(0.7f), std::sin(0.7f), 0)) < 1e-6f);
}

TEST_CASE("BadShapesAreSkipped") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<ShapePart> parts;
  CHECK_FALSE(expandShape(item(varsim::ShapeKind::Box, glm::mat4(1), {1, -1, 1}), parts));
  CHECK_FALSE(expandShape(item(varsim::ShapeKind::Sphere, glm::mat4(1), {0, 0, 0}), parts));
  CHECK_FALSE(expandShape(item(varsim::ShapeKind::Cylinder, glm::mat4(1), {1, 1, nan}), parts));
  CHECK_FALSE(expandShape(item(varsim::ShapeKind::Arrow, glm::mat4(1), {0.1f, 0.2f, 0}), parts));
  CHECK_FALSE(expandShape(item(varsim::ShapeKind::Capsule, glm::mat4(0), {1, 1, 1}), parts));  // singular
  glm::mat4 bad(1);
  bad[3].x = std::numeric_limits<float>::infinity();
  CHECK_FALSE(expandShape(item(varsim::ShapeKind::Disc, bad, {1, 1, 1}), parts));
  varsim::ShapeItem colourless = item(varsim::ShapeKind::Box, glm::mat4(1), {1, 1, 1});
  colourless.color.g = nan;
  CHECK_FALSE(expandShape(colourless, parts));
  CHECK(parts.empty());
  // Out-of-range colours are clamped, not rejected.
  varsim::ShapeItem bright = item(varsim::ShapeKind::Box, glm::mat4(1), {1, 1, 1});
  bright.color = {2.0f, -1.0f, 0.5f, 7.0f};
  REQUIRE(expandShape(bright, parts));
  CHECK(parts.back().instance.color == glm::vec4(1.0f, 0.0f, 0.5f, 1.0f));
  // A zero-length capsule is a sphere, still drawable.
  CHECK(expandShape(item(varsim::ShapeKind::Capsule, glm::mat4(1), {0.1f, 0.1f, 0.0f}), parts));
}

TEST_CASE("LevelOfDetailKeepsSagBelowAPixel") {
  const float ppr = lodPixelsPerRadian(720, 0.785f);
  int previous = 0;
  for (float distance = 0.1f; distance < 2000.0f; distance *= 1.1f) {
    const float radius = 0.05f;
    const int lod = chooseLod(radius, distance, ppr);
    CHECK(lod >= previous);  // farther never means finer
    previous = lod;
    const float pixels = radius * ppr / distance;
    const float sag = pixels * (1.0f - std::cos(float(kPi) / float(kLodSegments[lod])));
    if (lod > 0) CHECK(sag < 0.6f);  // a coarser level is chosen only while it looks the same
  }
  CHECK(previous == kLodCount - 1);
  CHECK(chooseLod(1.0f, 1.0f, ppr) == 0);
}

TEST_CASE("RibbonsFaceTheEye: thin rods become 2-triangle strips turned to the eye, as wide as the rod") {
  const MeshData ribbon = makePrimitive(Primitive::Ribbon, 3);
  CHECK(ribbon.vertices.size() == 4);
  CHECK(ribbon.indices.size() == 6);
  // Which parts become ribbons: rods at most kRibbonMaxPixels of projected radius, nothing else.
  const float ppr = lodPixelsPerRadian(720, 0.785f);
  std::vector<ShapePart> parts;
  REQUIRE(expandShape(item(varsim::ShapeKind::Capsule, glm::mat4(1), {0.05f, 0.05f, 1.0f}), parts));
  REQUIRE(expandShape(item(varsim::ShapeKind::Cylinder, glm::mat4(1), {0.05f, 0.03f, 1.0f}), parts));
  REQUIRE(expandShape(item(varsim::ShapeKind::Sphere, glm::mat4(1), {0.05f, 0.05f, 0.05f}), parts));
  const float thin = 0.05f * ppr / (0.9f * kRibbonMaxPixels), thick = 0.05f * ppr / (1.1f * kRibbonMaxPixels);
  ShapePart capsule = parts[0];
  CHECK(!useRibbon(capsule, thick, ppr));
  CHECK(capsule.primitive == Primitive::Capsule);
  REQUIRE(useRibbon(capsule, thin, ppr));
  CHECK(capsule.primitive == Primitive::Ribbon);
  CHECK(capsule.instance.halfLength == doctest::Approx(0.5f + 0.05f));  // runs on over the round ends
  ShapePart cylinder = parts[1];
  REQUIRE(useRibbon(cylinder, thin, ppr));
  CHECK(cylinder.instance.halfLength == doctest::Approx(0.5f));
  CHECK(cylinder.instance.scale.x == doctest::Approx(0.05f));  // the larger of the two radii
  ShapePart sphere = parts[2];
  CHECK(!useRibbon(sphere, 1e6f, ppr));
  // A rod far below a pixel is widened to kRibbonMinPixels of half-width at its distance (visible).
  ShapePart far = parts[0];
  REQUIRE(useRibbon(far, 200.0f * thin, ppr));
  CHECK(far.instance.scale.x * ppr / (200.0f * thin) == doctest::Approx(kRibbonMinPixels));
  CHECK(far.instance.halfLength == doctest::Approx(0.5f + 0.05f));  // the length stays the rod's
  // Placement (shape.vert.glsl's billboard): for rods in any pose and eyes anywhere, both triangles
  // face the eye, the strip spans ±halfLength along the axis and ±radius across it.
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> a(-3.0f, 3.0f);
  for (int trial = 0; trial < 200; ++trial) {
    glm::mat4 m = glm::translate(glm::mat4(1), glm::vec3(a(rng), a(rng), a(rng)));
    m = glm::rotate(m, a(rng), glm::normalize(glm::vec3(a(rng), a(rng), a(rng) + 0.01f)));
    std::vector<ShapePart> rod;
    REQUIRE(expandShape(item(varsim::ShapeKind::Capsule, m, {0.02f, 0.02f, 1.5f}), rod));
    REQUIRE(useRibbon(rod[0], 20.0f, ppr));  // 0.87 px: a ribbon at the rod's own radius
    const ShapeInstance& in = rod[0].instance;
    const glm::vec3 eye(4 * a(rng), 4 * a(rng), 4 * a(rng)), axis(m[2]), centre(m[3]);
    std::vector<glm::vec3> w;
    for (const MeshVertex& v : ribbon.vertices) w.push_back(ribbonVertex(in, v, eye));
    for (size_t t = 0; t < ribbon.indices.size(); t += 3) {
      const glm::vec3 p = w[ribbon.indices[t]], q = w[ribbon.indices[t + 1]], r = w[ribbon.indices[t + 2]];
      CHECK(glm::dot(glm::cross(q - p, r - p), eye - p) > 0.0f);
    }
    for (size_t k = 0; k < w.size(); ++k) {
      const float along = glm::dot(w[k] - centre, axis);
      CHECK(std::abs(along) == doctest::Approx(0.75f + 0.02f).epsilon(1e-4));
      CHECK(glm::length(w[k] - centre - along * axis) == doctest::Approx(0.02f).epsilon(1e-3));
    }
  }
}

TEST_CASE("StripsBecomeSegments") {
  varsim::LineStrip strip;
  strip.points = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
  strip.width = 3.0f;
  std::vector<LineSegment> out;
  CHECK(appendSegments(strip, out) == 3);
  strip.loop = true;
  CHECK(appendSegments(strip, out) == 4);
  REQUIRE(out.size() == 7);
  CHECK(out.back().p0 == glm::vec3(0, 1, 0));
  CHECK(out.back().p1 == glm::vec3(0, 0, 0));  // the closing segment
  CHECK(out.back().width == 3.0f);
  // A NaN point drops the two segments that touch it; nothing else.
  strip.loop = false;
  strip.points[1][2] = std::numeric_limits<float>::quiet_NaN();
  out.clear();
  CHECK(appendSegments(strip, out) == 1);
  CHECK(out[0].p0 == glm::vec3(1, 1, 0));
  // Widths and colours are clamped to drawable ranges; short strips draw nothing.
  strip.points = {{0, 0, 0}, {1, 0, 0}};
  strip.width = std::numeric_limits<float>::quiet_NaN();
  strip.color = {1.5f, -0.5f, 0.25f, 1.0f};
  out.clear();
  CHECK(appendSegments(strip, out) == 1);
  CHECK(out[0].width == kMinLineWidth);
  CHECK(out[0].color == glm::vec4(1.0f, 0.0f, 0.25f, 1.0f));
  strip.width = 1e6f;
  CHECK(appendSegments(strip, out) == 1);
  CHECK(out.back().width == kMaxLineWidth);
  strip.points.resize(1);
  CHECK(appendSegments(strip, out) == 0);
}
