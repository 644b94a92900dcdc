// The same ladder (seed 001 Sec. 6) in ODE (Debian libode 0.16, double precision: checked below with
// dCheckConfiguration) next to SPOOK: dWorldStep (direct, dense) and dWorldQuickStep (20 SOR sweeps),
// with ERP/CFM mapped from (ε, τ, h) by toOde: CFM = 4ε/(h + 4τ), ERP = 4h/(h + 4τ) — SPOOK's Σ
// and Υ term by term (spook_conventions.h; ODE lacks SPOOK's Υ G v_k term). Each rod is an ODE body
// (mass 10, inertia m l²/12 about the two perpendicular axes; the spin about its own axis, absent in
// the (x, u) model, gets 1e-3 of that so ODE's inertia stays invertible); joints and pins are ODE ball
// joints at the rod ends. Prints time per step, RMS/max joint gap, blow-up, and the ratio ours/ODE.
// With libmujoco-dev: MuJoCo 2.2 (free bodies + `connect` equalities, Newton and PGS) at N = 20, 100,
// 500 (ladder_mujoco_peer.h states the ε, τ → solref mapping); and our rigid-rod stepper beside ours.
//   bench_ladder_ode [seconds]   simulated time per run (default 10 s; 2 s for N ≥ 200)
#include <ode/ode.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <ctime>
#include <memory>

#include "engine/integrators/rigid_rod_spook.h"
#include "engine/integrators/spook.h"
#include "engine/integrators/spook_conventions.h"
#include "engine/models/ladder.h"
#include "tests/bench/ladder_mujoco_peer.h"

using namespace varsim;

namespace {

struct RunStats {
  double msPerStep = 0, meanRms = 0, maxRms = 0, maxGap = 0, finalEnergy = 0;
  double blowUpAt = -1;  // s, −1 if none
};

struct OdeLadder {
  dWorldID world;
  std::vector<dBodyID> rods;
  struct End {
    int rod;
    double s;
  };
  std::vector<std::pair<End, End>> joints;  // rod −1 = world origin
  double l;
};

Eigen::Vector3d endPoint(const OdeLadder& L, OdeLadder::End e) {
  if (e.rod < 0) return Eigen::Vector3d::Zero();
  dVector3 p;
  dBodyGetRelPointPos(L.rods[size_t(e.rod)], 0, 0, e.s * 0.5 * L.l, p);
  return {p[0], p[1], p[2]};
}

// Builds the ODE twin of Ladder(config): same rods, same initial pose, same joints.
OdeLadder buildOde(const Ladder& ladder, const OdeErpCfm& erpCfm) {
  OdeLadder L;
  L.world = dWorldCreate();
  dWorldSetGravity(L.world, 0, 0, -9.81);
  dWorldSetERP(L.world, erpCfm.erp);
  dWorldSetCFM(L.world, erpCfm.cfm);
  dWorldSetQuickStepNumIterations(L.world, 20);
  const RodSystem& sys = ladder.system();
  const Eigen::VectorXd q = sys.initialState().q;
  L.l = ladder.config().rodLength;
  const double m = ladder.config().rodMass, I = m * L.l * L.l / 12.0;
  for (size_t b = 0; b < sys.bodies().size(); ++b) {
    dBodyID body = dBodyCreate(L.world);
    const Eigen::Vector3d x = q.segment<3>(sys.bodies()[b].offset), u = sys.direction(int(b), q);
    dBodySetPosition(body, x.x(), x.y(), x.z());
    const Eigen::Matrix3d R = Eigen::Quaterniond::FromTwoVectors(Eigen::Vector3d::UnitZ(), u).toRotationMatrix();
    dMatrix3 Rd = {R(0, 0), R(0, 1), R(0, 2), 0, R(1, 0), R(1, 1), R(1, 2), 0, R(2, 0), R(2, 1), R(2, 2), 0};
    dBodySetRotation(body, Rd);
    dMass mass;
    dMassSetZero(&mass);
    dMassSetParameters(&mass, m, 0, 0, 0, I, I, 1e-3 * I, 0, 0, 0);
    dBodySetMass(body, &mass);
    L.rods.push_back(body);
  }
  for (int i : sys.jointConstraintIndices()) {
    const BodyPoint a = sys.anchor(i);
    const bool pin = sys.constraints()[size_t(i)].group == kGroupPins;
    // The second point of a joint: the other body whose end coincides with a's at t = 0.
    const Eigen::Vector3d pa = sys.point(a, q);
    OdeLadder::End ea{a.body, double(a.s)}, eb{-1, 0};
    if (!pin)
      for (size_t b = 0; b < sys.bodies().size() && eb.rod < 0; ++b)
        for (int s : {-1, 1})
          if (int(b) != a.body && (sys.point({int(b), s}, q) - pa).norm() < 1e-12) eb = {int(b), double(s)};
    dJointID j = dJointCreateBall(L.world, 0);
    dJointAttach(j, L.rods[size_t(ea.rod)], eb.rod < 0 ? nullptr : L.rods[size_t(eb.rod)]);
    dJointSetBallAnchor(j, pa.x(), pa.y(), pa.z());
    L.joints.push_back({ea, eb});
  }
  return L;
}

RunStats runOde(const Ladder& ladder, const OdeErpCfm& erpCfm, bool quick, double h, double T) {
  OdeLadder L = buildOde(ladder, erpCfm);
  RunStats st;
  const long steps = std::lround(T / h);
  double totalMs = 0;
  for (long k = 0; k < steps; ++k) {
    const auto t0 = std::chrono::steady_clock::now();
    if (quick) dWorldQuickStep(L.world, h);
    else dWorldStep(L.world, h);
    totalMs += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    double sum = 0, worst = 0, speed = 0;
    for (const auto& [a, b] : L.joints) {
      const double g = (endPoint(L, a) - endPoint(L, b)).norm();
      sum += g * g;
      worst = std::max(worst, std::isfinite(g) ? g : 1e300);
    }
    for (dBodyID b : L.rods) speed = std::max(speed, Eigen::Map<const Eigen::Vector3d>(dBodyGetLinearVel(b)).norm());
    const double rms = std::sqrt(sum / double(L.joints.size()));
    if (!std::isfinite(rms) || worst > 10.0 || !(speed < 1e5)) {
      st.blowUpAt = (k + 1) * h;
      st.msPerStep = totalMs / double(k + 1);
      dWorldDestroy(L.world);
      return st;
    }
    st.meanRms += rms / double(steps);
    st.maxRms = std::max(st.maxRms, rms);
    st.maxGap = std::max(st.maxGap, worst);
  }
  double E = 0;
  for (dBodyID b : L.rods) {
    dMass mass;
    dBodyGetMass(b, &mass);
    const Eigen::Map<const Eigen::Vector3d> v(dBodyGetLinearVel(b)), w(dBodyGetAngularVel(b)), x(dBodyGetPosition(b));
    const double I = mass.I[0];  // perpendicular inertia; the axial spin stays ~0
    E += 0.5 * mass.mass * v.squaredNorm() + 0.5 * I * w.squaredNorm() + mass.mass * 9.81 * x.z();
  }
  st.finalEnergy = E;
  st.msPerStep = totalMs / double(steps);
  dWorldDestroy(L.world);
  return st;
}

#ifdef VARSIM_HAVE_MUJOCO
RunStats runMujoco(const Ladder& ladder, const char* solver, double h, double T, const MujocoSolref& solref) {
  RunStats st;
  std::unique_ptr<bench::MujocoLadder> L;
  try {
    L = bench::buildMujocoLadder(ladder, solver, h, solref);
  } catch (const std::exception& e) {
    std::printf("        (MuJoCo %s: %s)\n", solver, e.what());
    st.blowUpAt = 0;
    return st;
  }
  const long steps = std::lround(T / h);
  double totalMs = 0;
  for (long k = 0; k < steps; ++k) {
    const std::clock_t c0 = std::clock();
    mj_step(L->model, L->data);
    totalMs += double(std::clock() - c0) / CLOCKS_PER_SEC * 1000.0;
    double sum = 0, worst = 0;
    for (const auto& [a, b] : L->joints) {
      const double g = (L->end(a.first, a.second) - L->end(b.first, b.second)).norm();
      sum += g * g;
      worst = std::max(worst, std::isfinite(g) ? g : 1e300);
    }
    const double rms = std::sqrt(sum / double(L->joints.size()));
    if (!std::isfinite(rms) || worst > 10.0 || L->data->warning[mjWARN_CNSTRFULL].number > 0 ||
        L->data->warning[mjWARN_BADQACC].number > 0) {
      st.blowUpAt = (k + 1) * h;
      st.msPerStep = totalMs / double(k + 1);
      return st;
    }
    st.meanRms += rms / double(steps);
    st.maxRms = std::max(st.maxRms, rms);
    st.maxGap = std::max(st.maxGap, worst);
  }
  st.finalEnergy = L->data->energy[0] + L->data->energy[1];
  st.msPerStep = totalMs / double(steps);
  return st;
}
#endif

// Our stepper, either rod model (rigid: rigid_rod_spook.h with the scene's default max_turn), one thread.
RunStats runSpook(const Ladder& ladder, double h, double T, SparseSolverKind solver, bool rigid = false) {
  SpookStepper director(ladder.system(), SpookConfig{solver, {}});
  RigidRodSpook rigidRods(ladder.system(), SpookConfig{solver, {}}, 0.03);
  SpookStepper& spook = rigid ? rigidRods.spook() : director;
  MechanicalState s = ladder.system().initialState();
  RunStats st;
  const long steps = std::lround(T / h);
  double total = 0;
  for (long k = 0; k < steps; ++k) {
    const std::clock_t c0 = std::clock();
    rigid ? rigidRods.step(s, h) : spook.step(s, h);
    total += double(std::clock() - c0) / CLOCKS_PER_SEC * 1000.0;
    const RodDiagnostics d = rodDiagnostics(ladder.system(), s);
    st.meanRms += d.constraintRms / double(steps);
    st.maxRms = std::max(st.maxRms, d.constraintRms);
    st.maxGap = std::max(st.maxGap, d.constraintMax);
    st.finalEnergy = d.energy;
  }
  st.msPerStep = total / double(steps);
  return st;
}

void print(const char* who, int N, const RunStats& s, double ours) {
  std::printf("%6d  %-16s %9.3f %11.3g %11.3g %11.3g %12.1f  %-14s %8.2f\n", N, who, s.msPerStep, s.meanRms, s.maxRms, s.maxGap,
              s.finalEnergy, s.blowUpAt < 0 ? "no" : ("at " + std::to_string(s.blowUpAt).substr(0, 5) + " s").c_str(),
              ours / s.msPerStep);
}

}  // namespace

int main(int argc, char** argv) {
  dInitODE2(0);
  const bool isDouble = dCheckConfiguration("ODE_double_precision") != 0;
  std::printf("ODE %s; compiled with %s\n", dGetConfiguration(),
#ifdef dDOUBLE
              "dDOUBLE"
#else
              "dSINGLE"
#endif
  );
  if (!isDouble) std::printf("WARNING: libode is not double precision\n");
  const double h = 1.0 / 60, T = argc > 1 ? std::atof(argv[1]) : 10.0;
  const SpookParameters sp{1e-8, 2 * h};
  const OdeErpCfm erpCfm = toOde(sp, h);
  std::printf("h = 1/60, eps = 1e-8, tau = 2h  =>  ERP = %.6g, CFM = %.6g; ladder released horizontal\n", erpCfm.erp, erpCfm.cfm);
  const MujocoSolref solref = toMujoco(sp, 10.0);  // the rod mass as effective mass
#ifdef VARSIM_HAVE_MUJOCO
  std::printf("MuJoCo %s: solref = (%.3g s, %.3g) from eps, tau on m = 10 kg (refsafe clamps timeconst to 2h = %.4g s), "
              "solimp (0.99, 0.999, 0.001), Euler, sparse Jacobian, 100 iterations\n",
              mj_versionString(), solref.timeconst, solref.dampratio, 2 * h);
#else
  std::printf("MuJoCo peer not built (libmujoco-dev not found at configure time); solref would be (%.3g s, %.3g)\n",
              solref.timeconst, solref.dampratio);
#endif
  std::printf("ms/step is process CPU time per step (the machine is shared)\n");
  std::printf("%6s  %-16s %9s %11s %11s %11s %12s  %-14s %8s\n", "N", "stepper", "ms/step", "mean rms m", "max rms m", "max gap m",
              "final E (J)", "blow-up", "ours/it");
  std::printf("(ours = SPOOK director rods with the block solver, 1 thread; ours/it < 1: ours is faster)\n");
  for (int N : {10, 20, 50, 100, 200, 500, 1000}) {
    const double t = N >= 200 ? std::min(T, 2.0) : T;
    const Ladder ladder(LadderConfig{N});
    const RunStats ours = runSpook(ladder, h, t, SparseSolverKind::Block);
    print("SPOOK (ldlt)", N, runSpook(ladder, h, t, SparseSolverKind::Ldlt), ours.msPerStep);
    print("SPOOK (block)", N, ours, ours.msPerStep);
    print("SPOOK rigid blk", N, runSpook(ladder, h, t, SparseSolverKind::Block, true), ours.msPerStep);
    if (N <= 100) print("ODE dWorldStep", N, runOde(ladder, erpCfm, false, h, t), ours.msPerStep);
    print("ODE QuickStep", N, runOde(ladder, erpCfm, true, h, t), ours.msPerStep);
#ifdef VARSIM_HAVE_MUJOCO
    if (N == 20 || N == 100 || N == 500)
      for (const char* solver : {"Newton", "PGS"})
        print(solver[0] == 'N' ? "MuJoCo Newton" : "MuJoCo PGS", N, runMujoco(ladder, solver, h, t, solref), ours.msPerStep);
#endif
  }
  std::printf("(dWorldStep is skipped above N = 100: its dense factorisation of the 12N-row system is O(N^3).)\n");
  dCloseODE();
  return 0;
}
