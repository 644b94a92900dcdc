// scenes/orbit/orbit_scene.cpp — scene `orbit` (issue 13): the three-ball rigid body of seed 004 Sec. 5 orbiting a central
// mass, on the quaternion LGVI (seed 004 eq. (23)), the SO(3)xR3 LGVI of seed 000 or RK4 of eq. (15). Reports
// energy, angular momentum about the centre, |q| - 1 and the distance r; draws the planet, the body (balls, rods,
// axes) and the orbit trail. All physics lives in the engine (scenes/orbit/orbit_sim.h).
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/sim/errors.h"
#include "scenes/orbit/orbit_params.h"
#include "scenes/orbit/orbit_sim.h"
#include "scenes/rigid_body/rigid_body_drawing.h"
#include "scenes/scene.h"

namespace varsim {
namespace {

const Rgba kBallColor[3] = {{0.95f, 0.55f, 0.15f, 1.0f}, {0.3f, 0.55f, 0.95f, 1.0f}, {0.3f, 0.8f, 0.4f, 1.0f}};

class OrbitScene : public Scene {
 public:
  explicit OrbitScene(ParamSet params)
      : Scene(std::move(params)),
        sim_(orbitIntegratorFrom(params_.choice("integrator")), orbitBody(params_), params_.real("gm"),
             orbitInitialState(params_), dt()),
        trail_(6000) {
    energy0_ = sim_.energy();
    L0_ = sim_.angularMomentum();
    const Vector3d x0 = params_.vec3("position"), v0 = params_.vec3("velocity");
    trailSpacing_ = 0.005 * x0.norm();
    // Frame the whole orbit: apoapsis of the Kepler orbit (bound) or twice the start radius, seen from above the
    // orbital plane.
    const double mu = params_.real("gm"), r0 = x0.norm(), energy = 0.5 * v0.squaredNorm() - mu / r0;
    viewRadius_ = energy < 0.0 ? std::min(-mu / energy, 4.0 * r0) : 2.0 * r0;  // 2a bounds the apoapsis
    normal_ = x0.cross(v0).norm() > 0.0 ? x0.cross(v0).normalized() : Vector3d::UnitZ();
    trail_.add(sim_.node().x);
  }

  void step(double h, const InputVector&) override {
    sim_.step(h);
    const Vector3d x = sim_.node().x;
    if ((x - lastTrail_).norm() >= trailSpacing_) trail_.add(x), lastTrail_ = x;
  }
  double time() const override { return sim_.time(); }
  double energyScale() const override {
    const double hw = dt() * quatRigidOmega(sim_.inertia(), sim_.node()).norm();
    return sim_.kineticEnergy() * (1.0 + hw * hw) + std::abs(sim_.potentialEnergy());
  }
  void applyLive(const ParamSet& params) override { params_ = params; }  // dt: used from the next step

  std::vector<std::string> columns() const override {
    return {"t",         "energy",    "L_x",        "L_y",       "L_z",     "p_x",       "p_y",     "p_z",
            "x",         "y",         "z",          "qw",        "qx",      "qy",        "qz",      "newton_iters",
            "qnorm_err", "r",         "energy_err", "L_rel_err", "kinetic", "potential", "omega_x", "omega_y",
            "omega_z",   "clearance", "step_us"};
  }

  void diagnostics(std::vector<double>& row) const override {
    const QuatRigidState s = sim_.node();
    const Vector3d L = sim_.angularMomentum(), omega = quatRigidOmega(sim_.inertia(), s);
    const double kinetic = sim_.kineticEnergy(), potential = sim_.potentialEnergy();
    row = {sim_.time(),
           kinetic + potential,
           L.x(),
           L.y(),
           L.z(),
           s.p.x(),
           s.p.y(),
           s.p.z(),
           s.x.x(),
           s.x.y(),
           s.x.z(),
           s.q[0],
           s.q[1],
           s.q[2],
           s.q[3],
           double(sim_.newtonIterations()),
           sim_.attitudeError(),
           s.x.norm(),
           kinetic + potential - energy0_,
           (L - L0_).norm() / L0_.norm(),
           kinetic,
           potential,
           omega.x(),
           omega.y(),
           omega.z(),
           sim_.field().clearance(s.x, sim_.rotation()),
           sim_.stepMicros()};
  }

  std::vector<double> saveState() const override { return sim_.saveState(); }
  void loadState(const std::vector<double>& state) override {
    sim_.loadState(state);
    trail_.clear();
    lastTrail_ = sim_.node().x;
    trail_.add(lastTrail_);
  }

  std::vector<PlotSpec> plots() const override {
    return {{"Energy error E - E0 (J)", {"energy_err"}, false, std::abs(energy0_)},
            {"Angular momentum error |L - L0| / |L0|", {"L_rel_err"}},
            {sim_.kind() == OrbitIntegrator::So3xR3Lgvi ? "|R^T R - I| (so3xr3_lgvi)" : "|q| - 1", {"qnorm_err"}},
            {"Distance to the centre r (m)", {"r"}}};
  }

  void draw(DrawList& out) const override {
    drawPlanet(out);
    drawBody(out);
    trail_.draw(out, {0.15f, 0.2f, 0.35f, 0.9f}, 2.0f);  // dark: the sky is light
    drawHud(out);
    out.camera.follow = false;
    out.camera.target = {0.0f, 0.0f, 0.0f};
    out.camera.distance = float(2.4 * viewRadius_);
    out.camera.setsAngles = true;
    const Vector3d horizontal(normal_.x(), normal_.y(), 0.0);
    out.camera.yaw = horizontal.norm() > 1e-6 ? float(std::atan2(normal_.y(), normal_.x())) : float(-M_PI / 2);
    out.camera.pitch = float(std::min(std::asin(std::min(1.0, std::abs(normal_.z()))), 1.05));
    out.camera.showGround = false;
    // The body is metres across on an orbit of kilometres: a ring marks it while it is that small, and
    // follow mode (C) centres on it.
    const float reach = float(circumradius(sim_.field().body()));
    const Vector3d x = sim_.node().x;
    out.camera.hasSubject = true;
    out.camera.subject = {float(x.x()), float(x.y()), float(x.z())};
    out.camera.subjectRadius = reach;
    TextLabel marker;
    marker.position = out.camera.subject;
    marker.text = "body (C: follow)";
    marker.color = {0.95f, 0.55f, 0.1f, 1.0f};
    marker.markerPixels = 20.0f;
    marker.markerRadius = reach;
    out.labels.push_back(marker);
  }

 private:
  void drawPlanet(DrawList& out) const {
    ShapeItem planet;
    planet.kind = ShapeKind::Sphere;
    const float r = float(std::max(params_.real("planet_radius"), 0.01 * viewRadius_));
    planet.size = {r, r, r};
    planet.color = {0.1f, 0.35f, 0.9f, 1.0f};  // the most saturated colour drawn (app smoke test looks for it)
    out.shapes.push_back(planet);
  }

  void drawBody(DrawList& out) const {
    const QuatRigidState s = sim_.node();
    const Matrix3d R = sim_.rotation();
    const BallCluster& body = sim_.field().body();
    const float ball = float(body.radius), rod = 0.25f * ball;
    std::vector<Vector3d> centres;
    for (const Vector3d& c : body.centres) centres.push_back(s.x + R * c);
    for (size_t i = 0; i < centres.size(); ++i) {
      ShapeItem b;
      b.kind = ShapeKind::Sphere;
      b.transform = poseToMat4(se3::Pose{R, centres[i]});
      b.size = {ball, ball, ball};
      b.color = kBallColor[i % 3];
      out.shapes.push_back(b);
      const Vector3d& a = centres[i];
      const Vector3d& c = centres[(i + 1) % centres.size()];
      ShapeItem r;  // capsule along local z from a to c
      r.kind = ShapeKind::Capsule;
      const Matrix3d Rz = Eigen::Quaterniond::FromTwoVectors(Vector3d::UnitZ(), c - a).toRotationMatrix();
      r.transform = poseToMat4(se3::Pose{Rz, 0.5 * (a + c)});
      r.size = {rod, rod, float((c - a).norm())};
      r.color = {0.8f, 0.8f, 0.85f, 1.0f};
      out.shapes.push_back(r);
    }
    const Rgba axis[3] = {{0.9f, 0.2f, 0.2f, 1.0f}, {0.2f, 0.8f, 0.25f, 1.0f}, {0.25f, 0.4f, 0.95f, 1.0f}};
    const double reach = circumradius(body);
    for (int i = 0; i < 3; ++i) drawArrow(out, s.x, 1.2 * reach * R.col(i), 0.6f * rod, axis[i]);
  }

  void drawHud(DrawList& out) const {
    std::vector<double> row;
    diagnostics(row);
    char line[200];
    std::snprintf(line, sizeof line, "%s  h = %.3g s  t = %.6g s  r = %.6g m  Newton %d",
                  params_.choice("integrator").c_str(), dt(), row[0], row[17], sim_.newtonIterations());
    out.hud.push_back(line);
    std::snprintf(line, sizeof line, "E = %.10g J  E-E0 = %+.2e J  |dL|/|L0| = %.1e", row[1], row[18], row[19]);
    out.hud.push_back(line);
    std::snprintf(line, sizeof line, "%s = %+.2e   |Omega| = %.4g rad/s",
                  sim_.kind() == OrbitIntegrator::So3xR3Lgvi ? "|R^T R - I|" : "|q| - 1", row[16],
                  Vector3d(row[22], row[23], row[24]).norm());
    out.hud.push_back(line);
    if (row[25] <= params_.real("planet_radius")) out.hud.push_back("a ball is inside the planet radius");
  }

  OrbitSim sim_;
  PointTrail trail_;  // drawing only, not part of the state
  Vector3d lastTrail_ = Vector3d::Zero();
  double trailSpacing_ = 0.0, viewRadius_ = 1.0;
  Vector3d normal_ = Vector3d::UnitZ();
  double energy0_ = 0.0;
  Vector3d L0_ = Vector3d::Zero();
};

}  // namespace

VARSIM_REGISTER_SCENE(SceneInfo{
    "orbit", "Rigid body orbiting a central mass (quaternion LGVI, seed 004)",
    "Seed 004 Sec. 5: three uniform balls of ball_mass on an equilateral triangle of side `side` in the body x-y "
    "plane, centred at the centre of mass (our choice for the paper's missing Figure 1), in the field of a central "
    "point mass, V = -sum gm m_i / |x + R rho_i| (exact for uniform balls), so the orbit and the spin are coupled "
    "by the tidal torque. Integrators: quat_lgvi (seed 004 eq. (23), unit quaternions without normalisation, "
    "Newton for Im(q_k* q_k+1)), so3xr3_lgvi (seed 000 LGVI on SO(3)xR3 with the field as a body wrench) or rk4 "
    "(RK4 of eq. (15) with the ERRATA sign, |q| drifts). Columns: energy = |p|^2/2m + Omega.J Omega/2 + V, L = x x p "
    "+ R J Omega about the centre, qnorm_err = |q| - 1 (so3xr3_lgvi: |R^T R - I|), r = |x|, newton_iters. The "
    "default is Sec. 5 with the tangential p0 = (0, 1, 0) of the ERRATA (the printed p0 plunges into the centre).",
    orbitParamSpecs, validateOrbitParams,
    [](const ParamSet& p) -> std::unique_ptr<Scene> { return std::make_unique<OrbitScene>(p); }});

}  // namespace varsim
