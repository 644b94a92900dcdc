// scenes/vehicles/vehicle_scenery.cpp — parking lot and arena layouts, impact record, scenery drawing (see the header).
#include "scenes/vehicles/vehicle_scenery.h"

#include <cmath>
#include <cstdio>

#include "scenes/vehicles/vehicle_drawing.h"

namespace varsim {

namespace {

void addBox(Scenery& s, const PlanarBox& plan, double zCentre, double height, Rgba color, const char* kind) {
  s.boxes.push_back({plan, zCentre, height, color, kind});
  s.obstacles.push_back(plan);
}

void addSegment(Scenery& s, double xa, double ya, double xb, double yb, Rgba c) {
  LineStrip line;
  line.points = {{float(xa), float(ya), 0.005f}, {float(xb), float(yb), 0.005f}};
  line.color = c;
  line.width = 3.0f;
  s.lines.push_back(line);
}

// The lot's geometry from the car's size: bays bw wide and bd deep on both sides of an aisle along +x, from
// x0; bay i on side +1 (north) or -1 (south) is occupied by a parked car when occupied(side, i).
struct LotLayout {
  double bw, bd, aisle, x0, x1, yIn, yOut;
  static constexpr int nBays = 10;
  static bool occupied(int side, int i) {
    static const int north[] = {1, 1, 0, 1, 1, 1, 0, 1, 0, 1}, south[] = {1, 0, 1, 1, 0, 1, 1, 0, 1, 1};
    return (side > 0 ? north : south)[i] != 0;
  }
};

LotLayout lotLayout(double carLength, double carWidth) {
  const double bw = 1.7 * carWidth, bd = 1.35 * carLength, aisle = 2.4 * carLength, x0 = 2.0 * carLength;
  return {bw, bd, aisle, x0, x0 + LotLayout::nBays * bw, 0.5 * aisle, 0.5 * aisle + bd};
}

}  // namespace

Scenery parkingLot(double carLength, double carWidth, double height) {
  Scenery s;
  const LotLayout lot = lotLayout(carLength, carWidth);
  const double bw = lot.bw, bd = lot.bd, aisle = lot.aisle, x0 = lot.x0, x1 = lot.x1, yIn = lot.yIn, yOut = lot.yOut;
  const int nBays = LotLayout::nBays;
  const Rgba white{0.92f, 0.92f, 0.88f, 1.0f}, yellow{1.0f, 0.85f, 0.1f, 1.0f};
  const Rgba paint[] = {{0.7f, 0.15f, 0.15f, 1}, {0.2f, 0.35f, 0.7f, 1}, {0.85f, 0.85f, 0.85f, 1}, {0.25f, 0.25f, 0.27f, 1}};
  for (int side : {1, -1}) {
    for (int i = 0; i <= nBays; ++i) addSegment(s, x0 + i * bw, side * yIn, x0 + i * bw, side * yOut, white);
    addSegment(s, x0, side * yOut, x1, side * yOut, white);
    for (int i = 0; i < nBays; ++i)
      if (LotLayout::occupied(side, i))
        addBox(s, {x0 + (i + 0.5) * bw, side * 0.5 * (yIn + yOut), 0.0, 0.5 * carWidth, 0.5 * carLength}, 0.5 * height,
               height, paint[(i + (side > 0 ? 0 : 2)) % 4], "parked car");
  }
  // The target bay (north, third from the entrance) is outlined in yellow.
  const double tx = x0 + 2 * bw;
  addSegment(s, tx + 0.08 * bw, yIn + 0.1 * bd, tx + 0.92 * bw, yIn + 0.1 * bd, yellow);
  addSegment(s, tx + 0.08 * bw, yOut - 0.1 * bd, tx + 0.92 * bw, yOut - 0.1 * bd, yellow);
  // Kerbs around the lot, an end wall, pillars between the bays and cones at the entrance.
  const double xa = -2.0 * carLength, xb = x1 + 2.0 * carLength, kerb = 0.15 * carWidth;
  const Rgba concrete{0.6f, 0.6f, 0.58f, 1}, orange{1.0f, 0.45f, 0.05f, 1};
  for (int side : {1, -1})
    addBox(s, {0.5 * (xa + xb), side * (yOut + kerb), 0.0, 0.5 * (xb - xa), kerb}, 0.5 * kerb, kerb, concrete, "kerb");
  addBox(s, {xb + kerb, 0.0, 0.0, kerb, yOut + 2 * kerb}, 0.6 * height, 1.2 * height, concrete, "end wall");
  for (int i : {3, 7})
    for (int side : {1, -1})
      addBox(s, {x0 + i * bw, side * (yOut + 0.35 * carWidth), 0.0, 0.2 * carWidth, 0.2 * carWidth}, 1.5 * height,
             3.0 * height, concrete, "pillar");
  for (int i = 0; i < 3; ++i)
    addBox(s, {0.5 * x0 + 0.6 * carLength * i, 0.42 * aisle, 0.0, 0.125 * carWidth, 0.125 * carWidth}, 0.25 * height,
           0.5 * height, orange, "cone");
  return s;
}

double bodyLength(double l, double rho) { return l + 2.2 * rho; }
double bodyWidth(double l, double rho) { return 0.55 * l + 0.5 * rho; }
Footprint carFootprint(double l, double rho) {
  const double half = 0.5 * bodyLength(l, rho), w = 0.5 * bodyWidth(l, rho);
  return {0.5 * l - half, 0.5 * l + half, -w, w};
}
Footprint snakeboardFootprint(double l) { return {-1.45 * l, 1.45 * l, -0.45 * l, 0.45 * l}; }
Scenery carParkingLot(double l, double rho) { return parkingLot(bodyLength(l, rho), bodyWidth(l, rho), 1.1 * rho); }

std::vector<NamedPose> carLotFreeBays(double l, double rho) {
  const LotLayout lot = lotLayout(bodyLength(l, rho), bodyWidth(l, rho));
  std::vector<NamedPose> bays;
  for (int side : {1, -1})
    for (int i = 0; i < LotLayout::nBays; ++i) {
      if (LotLayout::occupied(side, i)) continue;
      // Nose in: the body centre (0.5 l ahead of the rear axle, carFootprint) on the bay's centre.
      const double heading = side * 0.5 * 3.14159265358979323846, yCentre = side * 0.5 * (lot.yIn + lot.yOut);
      bays.push_back({std::string(side > 0 ? "north " : "south ") + std::to_string(i + 1),
                      {heading, lot.x0 + (i + 0.5) * lot.bw, yCentre - side * 0.5 * l}});
    }
  return bays;
}

Scenery arena(double l) {
  Scenery s;
  const double half = 50.0 * l, t = 1.0 * l;
  const Rgba wall{0.6f, 0.6f, 0.58f, 1}, crate{0.65f, 0.45f, 0.25f, 1};
  for (int side : {-1, 1}) {
    addBox(s, {0.0, side * (half + t), 0.0, half + 2 * t, t}, l, 2.0 * l, wall, "wall");
    addBox(s, {side * (half + t), 0.0, 0.0, t, half + 2 * t}, l, 2.0 * l, wall, "wall");
  }
  const double crates[][3] = {{15, 15, 0.3}, {15, -15, -0.2}, {-20, 25, 0.5}, {-20, -25, 0.0}, {-35, 10, 0.8}, {30, 0, 0.0}};
  for (const auto& c : crates) addBox(s, {c[0] * l, c[1] * l, c[2], 2.0 * l, 2.0 * l}, 0.75 * l, 1.5 * l, crate, "crate");
  return s;
}

void ImpactRecord::record(double time, const ImpactEvent& e) {
  ++count;
  t = time;
  obstacle = double(e.obstacle);
  before = e.speedBefore;
  after = e.speedAfter;
  x = e.point.x();
  y = e.point.y();
}

void ImpactRecord::save(std::vector<double>& state) const { state.insert(state.end(), {double(count), t, obstacle, before, after, x, y}); }

void ImpactRecord::load(const std::vector<double>& v, size_t at) {
  count = long(v.at(at));
  t = v.at(at + 1);
  obstacle = v.at(at + 2);
  before = v.at(at + 3);
  after = v.at(at + 4);
  x = v.at(at + 5);
  y = v.at(at + 6);
}

namespace {
// Seconds since the last impact on a box of `s` (infinite when none or the index does not fit).
double sinceImpact(const Scenery& s, const ImpactRecord& last, double now) {
  const bool valid = last.count > 0 && last.obstacle >= 0.0 && last.obstacle < double(s.boxes.size());
  return valid ? now - last.t : INFINITY;
}
}  // namespace

void drawScenery(DrawList& out, const Scenery& s, const ImpactRecord& last, double now, double markerRadius) {
  const double since = sinceImpact(s, last, now);
  for (size_t i = 0; i < s.boxes.size(); ++i) {
    const SceneryBox& b = s.boxes[i];
    const bool flash = since < kFlashTime && size_t(last.obstacle) == i;
    drawBox(out, planarFrame(b.plan.heading, b.plan.cx, b.plan.cy), {0.0, 0.0, b.zCentre},
            {2.0 * b.plan.halfX, 2.0 * b.plan.halfY, b.height}, flash ? flashColor(since) : b.color);
  }
  out.lines.insert(out.lines.end(), s.lines.begin(), s.lines.end());
  if (since < kFlashTime) drawImpactMarker(out, last.x, last.y, markerRadius, since / kFlashTime);
}

std::string impactHudLine(const Scenery& s, const ImpactRecord& last, double now, double restitution) {
  if (!(sinceImpact(s, last, now) < kImpactHudTime)) return "";
  char line[160];
  std::snprintf(line, sizeof line, "IMPACT: %s %.2f -> %.2f m/s (e = %.2f), %ld so far", s.boxes[size_t(last.obstacle)].kind,
                last.before, last.after, restitution, last.count);
  return line;
}

}  // namespace varsim
