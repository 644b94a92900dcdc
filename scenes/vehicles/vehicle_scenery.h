// scenes/vehicles/vehicle_scenery.h — the solid scenery of the ground-vehicle scenes: the car's parking lot (bays,
// parked cars, kerbs, end wall, pillars, cones) and the snakeboard's walled arena with crates, as boxes to
// draw and the planar obstacles (engine/models/planar_obstacles.h) the vehicles collide with; and the record
// of the last impact that makes a hit visible (flashing box, ground marker, HUD line) and is saved with state.
#pragma once

#include <string>
#include <vector>

#include "engine/integrators/planar_impact.h"
#include "render/draw_list.h"

namespace varsim {

struct SceneryBox {
  PlanarBox plan;           // ground rectangle: what the vehicle collides with
  double zCentre, height;   // m, vertical placement of the drawn box
  Rgba color;
  const char* kind;         // what the HUD calls it on impact ("parked car", "wall", ...)
};

struct Scenery {
  std::vector<SceneryBox> boxes;
  std::vector<PlanarBox> obstacles;  // boxes[i].plan, in order (impact indices refer to both)
  std::vector<LineStrip> lines;      // ground markings
};

// Parking lot sized from the car's drawn body: ten bays each side of an aisle along +x from x = 2 carLength,
// bays 1.7 carWidth wide; kerbs, an end wall, pillars and three cones at the entrance.
Scenery parkingLot(double carLength, double carWidth, double height);
// The car scene's drawn body (wheelbase l, wheel radius rho), its solid outline in the rear-axle frame, and its
// parking lot: shared by scenes/vehicles/car_scene.cpp and the planner (ui/plan_command.cpp), so both see one world.
double bodyLength(double l, double rho);
double bodyWidth(double l, double rho);
Footprint carFootprint(double l, double rho);
// The snakeboard's solid outline (board, axles and foot plates turned by up to kMaxSteer stay inside it).
Footprint snakeboardFootprint(double l);
Scenery carParkingLot(double l, double rho);
// The free bays of carParkingLot (no parked car), each as the rear-axle pose of the car parked nose-in at the
// bay's centre; named "north 3" (third from the entrance on the +y side), "south 2", ... (the app's Plan goals).
struct NamedPose {
  std::string name;
  se2::Pose2 pose;
};
std::vector<NamedPose> carLotFreeBays(double l, double rho);
// Arena sized from the snakeboard's half length l: square walls at +-50 l and six crates off the line the
// default gait rides along body -x.
Scenery arena(double l);

// The last impact, for drawing and the HUD; part of the scenes' saved state (kStateSize numbers).
struct ImpactRecord {
  static constexpr size_t kStateSize = 7;
  long count = 0;
  double t = 0.0, obstacle = -1.0, before = 0.0, after = 0.0, x = 0.0, y = 0.0;
  void record(double time, const ImpactEvent& e);
  void save(std::vector<double>& state) const;
  void load(const std::vector<double>& state, size_t at);
};

// Boxes and markings; the box hit last flashes and a disc pulses at the contact point for kFlashTime s.
void drawScenery(DrawList& out, const Scenery& s, const ImpactRecord& last, double now, double markerRadius);
// "IMPACT: <kind> v -> v' m/s (e = ...), n so far" for kImpactHudTime s after an impact, else "".
std::string impactHudLine(const Scenery& s, const ImpactRecord& last, double now, double restitution);

}  // namespace varsim
