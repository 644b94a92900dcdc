// Point masses and rigid rods in seed 001 Sec. 6's (centre x, unit direction u) form, in 3-D, with
// the constraints the ladder, chain and sleigh need: ball joints between body points, pins to
// world points, unit length g_u = (u·u − 1)/2 (Jacobian uᵀ, ERRATA: this form scales ε for the row),
// points held on a plane, and the nonholonomic no-side-slip blade (n × u)·ṗ = w. Mass matrix per
// rod diag(m, m, m, ml²/12 ×3) (ERRATA: the paper prints l²/12). Gravity is the only force.
#pragma once
#include <Eigen/Core>
#include <string>
#include <vector>

#include "engine/models/constrained_model.h"

namespace varsim {

enum RodGroup { kGroupJoints = 0, kGroupUnit = 1, kGroupPins = 2, kGroupPlane = 3, kGroupNoSlip = 4 };

// A point on a body: its centre (s = 0, or the particle itself), head (s = +1: x + (l/2)u) or
// tail (s = −1: x − (l/2)u).
struct BodyPoint {
  int body = 0;
  int s = 0;
};

// The measures the ladder reference files and CSV columns use (shared/reference/README.md).
struct RodDiagnostics {
  double kinetic = 0, potential = 0, energy = 0;  // J: ½vᵀMv, Σ −m g·x
  double constraintRms = 0, constraintMax = 0;    // m: gaps |p_a − p_b| over joints and pins
  double unitRms = 0, unitMax = 0;                // |u·u − 1|/2 over rods
  double maxSpeed = 0;                            // m/s: max over rod ends / particles
};

class RodSystem;
RodDiagnostics rodDiagnostics(const RodSystem& system, const MechanicalState& state);

class RodSystem : public ConstrainedModel {
 public:
  struct Body {
    bool isRod = true;
    double mass = 1.0;    // kg
    double length = 0.0;  // m (rods)
    int offset = 0;       // first coordinate: x at offset..+2, u at offset+3..+5
  };

  explicit RodSystem(Eigen::Vector3d gravity = {0, 0, -9.81}) : gravity_(gravity) {}

  // Bodies; the initial q and v are returned by initialState().
  int addRod(double mass, double length, const Eigen::Vector3d& centre, const Eigen::Vector3d& direction,
             const Eigen::Vector3d& velocity = Eigen::Vector3d::Zero(),
             const Eigen::Vector3d& directionRate = Eigen::Vector3d::Zero());
  int addParticle(double mass, const Eigen::Vector3d& position, const Eigen::Vector3d& velocity = Eigen::Vector3d::Zero());
  // Rods of one mass and length at once, each with its unit-length row, in the order given (as addRod one by one);
  // returns the first rod's body index. The coordinate vectors grow once per call: growing an Eigen vector copies
  // it, so adding 3·10⁴ ladder rods one by one copies O(N²) doubles wherever realloc cannot grow in place.
  struct RodPose {
    Eigen::Vector3d centre, direction, velocity = Eigen::Vector3d::Zero(), directionRate = Eigen::Vector3d::Zero();
  };
  int addRods(double mass, double length, const std::vector<RodPose>& rods);
  // Constraints; each returns its constraint index. addRod adds the rod's unit-length row itself.
  int addJoint(BodyPoint a, BodyPoint b, const std::string& name = "");
  int addPin(BodyPoint a, const Eigen::Vector3d& worldPoint, const std::string& name = "");
  int addPlanePoint(BodyPoint a, const Eigen::Vector3d& normal, double offset, const std::string& name = "");
  // Blade at point a along the rod direction, in the plane with normal `normal`: the velocity of a
  // across the blade, (normal × u)·ṗ_a, equals sideSlip (m/s; 0 = no side slip).
  int addNoSideSlip(BodyPoint a, const Eigen::Vector3d& normal, double sideSlip = 0.0, const std::string& name = "");
  void setSideSlip(int constraint, double sideSlip);
  void setGravity(const Eigen::Vector3d& g) { gravity_ = g; }
  const Eigen::Vector3d& gravity() const { return gravity_; }

  const std::vector<Body>& bodies() const { return bodies_; }
  MechanicalState initialState() const { return MechanicalState{q0_, v0_, 0.0, 0}; }

  Eigen::Vector3d point(BodyPoint p, const Eigen::VectorXd& q) const;
  Eigen::Vector3d pointVelocity(BodyPoint p, const Eigen::VectorXd& v) const;
  Eigen::Vector3d direction(int body, const Eigen::VectorXd& q) const;  // u (not renormalised)
  // |p_a − p_b| (joints) and |p_a − P| (pins), in constraint order over those two kinds.
  std::vector<double> jointGaps(const Eigen::VectorXd& q) const;
  std::vector<int> jointConstraintIndices() const;  // the constraints jointGaps() reports, in order
  // Independent closed loops of the joint graph (bodies and the ground as nodes, joints and pins as edges: edges −
  // nodes + components). A loop folded flat makes its joint rows dependent, so with ε = 0 SPOOK's matrix is
  // singular there (the ladder: N loops; a chain pinned at one end: 0).
  int closedLoops() const;
  BodyPoint anchor(int constraint) const { return records_.at(size_t(constraint)).a; }  // first body point
  std::vector<double> unitResiduals(const Eigen::VectorXd& q) const;  // |u·u − 1|/2 per rod
  // RMS and max of jointGaps() and of unitResiduals() in one pass without building them (rodDiagnostics: every step).
  void gapStatistics(const Eigen::VectorXd& q, double& gapRms, double& gapMax, double& unitRms, double& unitMax) const;
  double maxEndSpeed(const Eigen::VectorXd& v) const;  // max over rod ends / particles of |ṗ|
  // potentialEnergy(q) and maxEndSpeed(v), bit for bit, in one pass over the bodies (rodDiagnostics: every step).
  void bodyStatistics(const Eigen::VectorXd& q, const Eigen::VectorXd& v, double& potential, double& maxSpeed) const;
  double endSpeed(int body, const Eigen::VectorXd& v) const;  // max over the body's ends
  // Gap or residual of constraint i in its own units (m for joints/pins/plane, m/s for no-slip,
  // dimensionless for unit rows): the norm of its rows.
  double constraintViolation(int i, const Eigen::VectorXd& q, const Eigen::VectorXd& v, double t) const;

  // ConstrainedModel
  int coordinateCount() const override { return int(massDiag_.size()); }
  const Eigen::VectorXd& massDiagonal() const override { return massDiag_; }
  const std::vector<ConstraintDesc>& constraints() const override { return descs_; }
  std::vector<std::string> groupNames() const override { return {"joints", "unit", "pins", "plane", "no_slip"}; }
  void evaluateConstraint(int i, const Eigen::VectorXd& q, double t, double* value, double* jac) const override;
  void constraintValue(int i, const Eigen::VectorXd& q, double t, double* value) const override;
  void constraintValues(const Eigen::VectorXd& q, double t, double* stacked) const override;
  // Every constraint's value stacked in constraint order; `unitRows` false leaves the unit-length rows out (the
  // rigid-rod view, where S² holds them: rigid_rod_model.h). One pass, no virtual call per constraint.
  void stackedValues(const Eigen::VectorXd& q, double* stacked, bool unitRows) const;
  // Joints, pins and planes are affine in q: their Jacobian blocks are the same at every q.
  bool constantJacobian(int i) const {
    const Kind k = records_.at(size_t(i)).kind;
    return k == Kind::Joint || k == Kind::Pin || k == Kind::Plane;
  }
  void constraintCurvature(int i, const Eigen::VectorXd& q, const Eigen::VectorXd& v, double t,
                           double* out) const override;
  void appliedForce(const Eigen::VectorXd& q, const Eigen::VectorXd& v, double t, Eigen::VectorXd& f) const override;
  double potentialEnergy(const Eigen::VectorXd& q) const override;

 private:
  enum class Kind { Joint, Pin, Unit, Plane, NoSlip };
  // A body point resolved once per topology: p = q[x..x+2] + half·q[x+3..x+5] (half = s l/2; 0: centre or particle).
  struct PointRef {
    int x = 0;
    double half = 0.0;
  };
  struct Record {
    Kind kind;
    BodyPoint a, b;
    Eigen::Vector3d vec = Eigen::Vector3d::Zero();  // pin point or plane/blade normal
    double scalar = 0.0;                            // plane offset or side-slip speed
  };
  // What the value passes read of a constraint, packed (the rest is in records_[record]): its points resolved.
  struct Eval {
    Kind kind;
    int record;
    PointRef a, b;
  };
  static void checkBody(const Body& body);                            // BadInput for a mass or length ≤ 0
  int addBody(const Body& body, const double* q, const double* v);  // growCoordinates, then placeBody
  void growCoordinates(long dofs);                                    // room for `dofs` more coordinates
  int placeBody(Body body, const double* q, const double* v);         // fills the next free coordinates
  int add(Record r, ConstraintDesc d);
  std::vector<int> pointColumns(BodyPoint p) const;
  // Writes ∂p/∂(body coords) times `sign` for rows given by `rowVec` (n·p): jac has columns
  // in pointColumns order, starting at column `col0` of a row-major block with `stride` columns.
  void pointJacobianRow(BodyPoint p, const Eigen::Vector3d& rowVec, double* jacRow, int col0) const;
  void pointAxisRow(BodyPoint p, int k, double sign, double* jacRow, int col0) const;
  PointRef resolve(BodyPoint p) const { return {bodies_[size_t(p.body)].offset, halfLength(p)}; }
  static Eigen::Vector3d pointAt(const PointRef& p, const Eigen::VectorXd& q);
  void valueOf(const Eval& e, const Eigen::VectorXd& q, double* value) const;
  static int rowsOf(Kind k) { return k == Kind::Joint || k == Kind::Pin ? 3 : 1; }
  double squaredEndSpeed(int body, const Eigen::VectorXd& v) const;  // max over its ends of |ṗ|²
  double bodyPotential(const Body& b, const Eigen::VectorXd& q) const { return b.mass * gravity_.dot(q.segment<3>(b.offset)); }
  double halfLength(BodyPoint p) const { return bodies_[size_t(p.body)].isRod ? 0.5 * p.s * bodies_[size_t(p.body)].length : 0.0; }
  std::string pointName(BodyPoint p) const;

  Eigen::Vector3d gravity_;
  std::vector<Body> bodies_;
  std::vector<Record> records_;
  std::vector<Eval> evals_, rigidEvals_;  // per constraint; all but the unit rows (what the rigid view stacks)
  std::vector<ConstraintDesc> descs_;
  Eigen::VectorXd massDiag_, q0_, v0_;
};

// The one definition of a body point's position: the u term only at a rod end (half ≠ 0; a centre or a particle,
// which has no u, adds nothing). Inline: the value passes call it twice per joint, a few times per step.
inline Eigen::Vector3d RodSystem::pointAt(const PointRef& p, const Eigen::VectorXd& q) {
  Eigen::Vector3d x = q.segment<3>(p.x);
  if (p.half != 0.0) x += p.half * q.segment<3>(p.x + 3);
  return x;
}

inline Eigen::Vector3d RodSystem::point(BodyPoint p, const Eigen::VectorXd& q) const { return pointAt(resolve(p), q); }

}  // namespace varsim
