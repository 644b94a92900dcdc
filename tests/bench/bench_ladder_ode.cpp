// The same ladder (seed 001 Sec. 6) in ODE (Debian libode 0.16, double precision: checked below with
// dCheckConfiguration) next to SPOOK: dWorldStep (direct, dense) and dWorldQuickStep (20 SOR sweeps),
// with ERP/CFM mapped from (ε, τ, h) by toOde: CFM = 4ε/(h + 4τ), ERP = 4h/(h + 4τ) — SPOOK's Σ
// and Υ term by term (spook_conventions.h; ODE lacks SPOOK's Υ G v_k term). Each rod is an ODE body
// (mass 10, inertia m l²/12 about the two perpendicular axes; the spin about its own axis, absent in
// the (x, u) model, gets 1e-3 of that so ODE's inertia stays invertible); joints and pins are ODE ball
// joints at the rod ends. Prints time per step, RMS/max joint gap, blow-up, and the ratio ours/ODE.
// With libmujoco-dev: MuJoCo 2.2 (free bodies + `connect` equalities, Newton and PGS) at N = 20, 100,
// 500 (ladder_mujoco_peer.h states the ε, τ → solref mapping); and our rigid rods (the ladder scene) beside ours.
// Every run is measured by one loop (ladder_peer_run.h): CPU ms/step mean and p99, gaps, max E − E(0).
//   bench_ladder_ode [seconds]   short windows N = 10 … 1000, director rods as ours (default 10 s; 2 s for N ≥ 200)
//   bench_ladder_ode --window [seconds [N ...] [--peer-eps EPS]]   the whole fall (default 60 s, N = 20 100 500 1000):
//                                ours = the ladder scene with its defaults (ladder_peer_scene.h), the peers mapped
//                                from the scene's joint ε, τ (or ε = EPS); gaps per time bin and the ratios
#include <ode/ode.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include <ctime>
#include <memory>

#include "engine/integrators/rigid_rod_spook.h"
#include "engine/integrators/spook.h"
#include "engine/integrators/spook_conventions.h"
#include "engine/models/ladder.h"
#include "scenes/rods/ladder_scene.h"
#include "tests/bench/ladder_mujoco_peer.h"
#include "tests/bench/ladder_peer_run.h"
#include "tests/bench/ladder_peer_scene.h"

using namespace varsim;

namespace {

using bench::GapSample;
using bench::RunStats;

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

// Gaps over the joints, total energy (rotation about the principal axes) and the fastest body.
GapSample odeSample(const OdeLadder& L) {
  GapSample g;
  double sum = 0;
  for (const auto& [a, b] : L.joints) {
    const double d = (endPoint(L, a) - endPoint(L, b)).norm();
    sum += d * d;
    g.maxGap = std::max(g.maxGap, std::isfinite(d) ? d : 1e300);
  }
  g.rms = std::sqrt(sum / double(L.joints.size()));
  for (dBodyID b : L.rods) {
    dMass mass;
    dBodyGetMass(b, &mass);
    const Eigen::Map<const Eigen::Vector3d> v(dBodyGetLinearVel(b)), w(dBodyGetAngularVel(b)), x(dBodyGetPosition(b));
    const dReal* R = dBodyGetRotation(b);  // row-major 3×4
    for (int i = 0; i < 3; ++i) {
      const double wi = R[i] * w.x() + R[4 + i] * w.y() + R[8 + i] * w.z();  // body-frame ω (Rᵀω)
      g.energy += 0.5 * mass.I[4 * i + i] * wi * wi;
    }
    g.energy += 0.5 * mass.mass * v.squaredNorm() + mass.mass * 9.81 * x.z();
    g.speed = std::max(g.speed, v.norm());
  }
  return g;
}

RunStats runOde(const Ladder& ladder, const OdeErpCfm& erpCfm, bool quick, double h, double T, int bins, double stopGap) {
  OdeLadder L = buildOde(ladder, erpCfm);
  const RunStats st = bench::runLoop(
      h, T, bins, stopGap, [&] { quick ? dWorldQuickStep(L.world, h) : dWorldStep(L.world, h); }, [&] { return odeSample(L); });
  dWorldDestroy(L.world);
  return st;
}

#ifdef VARSIM_HAVE_MUJOCO
// Gaps and energy at the state after mj_step (mj_kinematics refreshes the poses; data->energy would be the
// step's start). Free joint qvel = (linear velocity in the world, angular velocity in the body frame).
GapSample mujocoSample(const bench::MujocoLadder& L) {
  mj_kinematics(L.model, L.data);
  GapSample g;
  double sum = 0;
  for (const auto& [a, b] : L.joints) {
    const double d = (L.end(a.first, a.second) - L.end(b.first, b.second)).norm();
    sum += d * d;
    g.maxGap = std::max(g.maxGap, std::isfinite(d) ? d : 1e300);
  }
  g.rms = std::sqrt(sum / double(L.joints.size()));
  for (int b = 1; b < L.model->nbody; ++b) {
    const double m = L.model->body_mass[b], *I = L.model->body_inertia + 3 * b, *v = L.data->qvel + 6 * (b - 1);
    g.energy += 0.5 * m * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) + m * 9.81 * L.data->xpos[3 * b + 2];
    g.energy += 0.5 * (I[0] * v[3] * v[3] + I[1] * v[4] * v[4] + I[2] * v[5] * v[5]);
    g.speed = std::max(g.speed, std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]));
  }
  g.failed = L.data->warning[mjWARN_CNSTRFULL].number > 0 || L.data->warning[mjWARN_BADQACC].number > 0;
  return g;
}

RunStats runMujoco(const Ladder& ladder, const char* solver, double h, double T, const MujocoSolref& solref, int bins,
                   double stopGap) {
  std::unique_ptr<bench::MujocoLadder> L;
  try {
    L = bench::buildMujocoLadder(ladder, solver, h, solref);
  } catch (const std::exception& e) {
    std::printf("        (MuJoCo %s: %s)\n", solver, e.what());
    RunStats st;
    st.blowUpAt = 0;
    return st;
  }
  return bench::runLoop(h, T, bins, stopGap, [&] { mj_step(L->model, L->data); }, [&] { return mujocoSample(*L); });
}
#endif

// Our director-rod stepper (the paper's model, seed 001 Sec. 6) at the stepper's default ε = 1e-8, τ = 2h, one thread.
RunStats runDirector(const Ladder& ladder, double h, double T, SparseSolverKind solver, int bins, double stopGap) {
  SpookStepper director(ladder.system(), SpookConfig{solver, {}});
  MechanicalState s = ladder.system().initialState();
  return bench::runLoop(
      h, T, bins, stopGap, [&] { director.step(s, h); },
      [&] {
        const RodDiagnostics d = rodDiagnostics(ladder.system(), s);
        return GapSample{d.constraintRms, d.constraintMax, d.energy, d.maxSpeed, false};
      });
}

// Ours as the app runs it: the `ladder` scene with its defaults (ladder_peer_scene.h), optional overrides.
RunStats runScene(bench::RodScenePeer& ours, double T, int bins, double stopGap) {
  return bench::runLoop(
      ours.h, T, bins, stopGap, [&] { ours.step(); },
      [&] {
        const RodDiagnostics d = ours.diagnostics();
        return GapSample{d.constraintRms, d.constraintMax, d.energy, d.maxSpeed, false};
      });
}

// One row: ours/it is the CPU-time ratio (< 1: ours faster), it/ours the max-gap ratio (> 1: ours tighter).
void print(const char* who, int N, const RunStats& s, const RunStats& ours) {
  std::printf("%6d  %-16s %8.3f %8.3f %10.3g %10.3g %10.3g %11.4g  %-12s %8.3f %9.3g\n", N, who, s.msPerStep, s.msP99, s.meanRms,
              s.maxRms, s.maxGap, s.maxExcess,
              s.blowUpAt < 0 ? "no" : ("at " + std::to_string(s.blowUpAt).substr(0, 5) + " s").c_str(),
              ours.msPerStep / s.msPerStep, s.maxGap / ours.maxGap);
  std::fflush(stdout);
}

void printHeader() {
  std::printf("%6s  %-16s %8s %8s %10s %10s %10s %11s  %-12s %8s %9s\n", "N", "stepper", "ms/step", "p99 ms", "mean rms",
              "max rms", "max gap", "max E-E0 J", "blow-up", "ours/it", "gap it/us");
}

// The first window (default mode): the sweep N = 10 … 1000 over T s (2 s for N ≥ 200), director rods as ours.
void shortWindows(double h, double T, const OdeErpCfm& erpCfm, const MujocoSolref& solref) {
  printHeader();
  std::printf("(ours = SPOOK director rods with the block solver, 1 thread; ours/it < 1: ours is faster)\n");
  for (int N : {10, 20, 50, 100, 200, 500, 1000}) {
    const double t = N >= 200 ? std::min(T, 2.0) : T;
    const Ladder ladder(LadderConfig{N});
    const RunStats ours = runDirector(ladder, h, t, SparseSolverKind::Block, 1, 10.0);
    print("SPOOK (ldlt)", N, runDirector(ladder, h, t, SparseSolverKind::Ldlt, 1, 10.0), ours);
    print("SPOOK (block)", N, ours, ours);
    bench::RodScenePeer rigid("ladder", N, {{"epsilon", "1e-8"}});  // the scene at the paper's ε, like the peers here
    print("SPOOK rigid blk", N, runScene(rigid, t, 1, 10.0), ours);
    if (N <= 100) print("ODE dWorldStep", N, runOde(ladder, erpCfm, false, h, t, 1, 10.0), ours);
    print("ODE QuickStep", N, runOde(ladder, erpCfm, true, h, t, 1, 10.0), ours);
#ifdef VARSIM_HAVE_MUJOCO
    if (N == 20 || N == 100 || N == 500)
      for (const char* solver : {"Newton", "PGS"})
        print(solver[0] == 'N' ? "MuJoCo Newton" : "MuJoCo PGS", N, runMujoco(ladder, solver, h, t, solref, 1, 10.0), ours);
#endif
  }
  std::printf("(dWorldStep is skipped above N = 100: its dense factorisation of the 12N-row system is O(N^3).)\n");
}

// Whole-fall mode (--window T): ours = the `ladder` scene with all its defaults (ladder_peer_scene.h: rigid rods,
// ε = 1e-10, τ = 2h, max_chord 1e-4 m, max_relinearise 4, block solver, 1 thread), ODE QuickStep (N ≥ 100) and
// MuJoCo Newton/PGS (N ≤ 500) mapped from the scene's joint (ε, τ) — or from peerEps ≥ 0 instead of its ε — over
// T s from the horizontal release (fall, whiplash, swing); no gap limit (a run stops only on non-finite state or
// speeds > 1e5 m/s).
void wholeFall(double T, const std::vector<int>& Ns, double peerEps) {
  const int bins = 6;
  const double inf = std::numeric_limits<double>::infinity();
  struct Entry {
    int N;
    std::string who;
    RunStats st;
  };
  std::vector<Entry> all;
  for (int N : Ns) {
    bench::RodScenePeer scene("ladder", N);
    const Ladder& ladder = dynamic_cast<const LadderScene&>(*scene.scene).ladder();
    const double h = scene.h;
    SpookParameters sp = scene.joints();
    if (peerEps >= 0) sp.epsilon = peerEps;
    const OdeErpCfm erpCfm = toOde(sp, h);
    const MujocoSolref solref = toMujoco(sp, ladder.config().rodMass);  // the rod mass as effective mass
    if (all.empty()) {
      std::printf("whole fall, %g s from the horizontal release; ours = the ladder scene's defaults (%s), 1 thread\n", T,
                  scene.setting().c_str());
      std::printf("peers mapped from eps = %.3g, tau = %.4g s (%s): ODE ERP = %.6g, CFM = %.6g; MuJoCo solref = (%.3g s, "
                  "%.3g) on m = %g kg (refsafe clamps timeconst to 2h = %.4g s), solimp (0.99, 0.999, 0.001)\n",
                  sp.epsilon, sp.tau, peerEps >= 0 ? "--peer-eps" : "the scene's joints", erpCfm.erp, erpCfm.cfm,
                  solref.timeconst, solref.dampratio, ladder.config().rodMass, 2 * h);
      printHeader();
    }
    const RunStats ours = runScene(scene, T, bins, inf);
    all.push_back({N, "SPOOK rigid blk", ours});
    print("SPOOK rigid blk", N, ours, ours);
    if (N >= 100) {
      all.push_back({N, "ODE QuickStep", runOde(ladder, erpCfm, true, h, T, bins, inf)});
      print("ODE QuickStep", N, all.back().st, ours);
    }
#ifdef VARSIM_HAVE_MUJOCO
    if (N <= 540)
      for (const char* solver : {"Newton", "PGS"}) {
        all.push_back({N, std::string("MuJoCo ") + solver, runMujoco(ladder, solver, h, T, solref, bins, inf)});
        print(all.back().who.c_str(), N, all.back().st, ours);
      }
    else
      std::printf("%6d  %-16s not run: MuJoCo 2.2 cannot allocate its constraint arrays above N ~ 540 (issue 16)\n", N, "MuJoCo");
#endif
  }
  for (const bool cost : {false, true}) {
    std::printf(cost ? "\nCPU ms per step, mean over each %g s of the run\n%6s  %-16s" : "\nmax joint gap (m) per %g s of the run\n%6s  %-16s",
                T / bins, "N", "stepper");
    for (int b = 0; b < bins; ++b) {
      char label[32];
      std::snprintf(label, sizeof label, "%.3g-%.3g s", b * T / bins, (b + 1) * T / bins);
      std::printf(" %11s", label);
    }
    std::printf("\n");
    for (const Entry& e : all) {
      std::printf("%6d  %-16s", e.N, e.who.c_str());
      for (double g : cost ? e.st.binMs : e.st.binGap) std::printf(" %11.3g", g);
      std::printf("\n");
    }
  }
  std::printf("\nissue-16 targets (same run):");
  for (const Entry& e : all) {
    const bool ode = e.N == 1000 && e.who == "ODE QuickStep", mj = e.N == 500 && e.who == "MuJoCo Newton";
    if (!ode && !mj) continue;
    const auto ours = std::find_if(all.begin(), all.end(), [&](const Entry& o) { return o.N == e.N && o.who[0] == 'S'; });
    std::printf("\n  N = %d vs %s: %.2fx faster (target %s), max gap %.3gx tighter (target %s), max RMS %.3gx tighter", e.N,
                e.who.c_str(), e.st.msPerStep / ours->st.msPerStep, ode ? "> 1" : ">= 10", e.st.maxGap / ours->st.maxGap,
                ode ? ">= 1000" : ">= 100", e.st.maxRms / ours->st.maxRms);
  }
  std::printf("\n");
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
  const bool whole = argc > 1 && std::strcmp(argv[1], "--window") == 0;
  const double h = 1.0 / 60, T = !whole && argc > 1 ? std::atof(argv[1]) : 10.0;
  const double window = whole ? (argc > 2 ? std::atof(argv[2]) : 60.0) : 0.0;
  std::vector<int> Ns;
  double peerEps = -1;  // < 0: the scene's ε
  bool badEps = false;
  for (int i = 3; whole && i < argc; ++i) {
    if (std::strcmp(argv[i], "--peer-eps") == 0) {
      badEps = i + 1 >= argc || !(std::atof(argv[i + 1]) > 0);
      if (!badEps) peerEps = std::atof(argv[++i]);
    } else Ns.push_back(std::atoi(argv[i]));
  }
  if (Ns.empty()) Ns = {20, 100, 500, 1000};
  if ((whole && !(window > 0)) || (!whole && !(T > 0)) || badEps || *std::min_element(Ns.begin(), Ns.end()) < 1 ||
      *std::max_element(Ns.begin(), Ns.end()) > 5000) {
    std::fprintf(stderr, "usage: bench_ladder_ode [seconds] | --window [seconds [N ...] [--peer-eps EPS]]  (seconds > 0, "
                         "N in [1, 5000], EPS > 0)\n");
    return 2;
  }
  std::printf("ms/step is process CPU time per step (the machine is shared)\n");
#ifdef VARSIM_HAVE_MUJOCO
  std::printf("MuJoCo %s: Euler, sparse Jacobian, 100 iterations\n", mj_versionString());
#else
  std::printf("MuJoCo peer not built (libmujoco-dev not found at configure time)\n");
#endif
  if (whole) {
    try {
      wholeFall(window, Ns, peerEps);
    } catch (const std::exception& e) {  // e.g. a size outside the scene's range (BadInput)
      std::fprintf(stderr, "bench_ladder_ode: %s\n", e.what());
      return 2;
    }
  } else {
    const SpookParameters sp{1e-8, 2 * h};  // the paper's setting (seed 001 Sec. 6)
    const OdeErpCfm erpCfm = toOde(sp, h);
    const MujocoSolref solref = toMujoco(sp, 10.0);  // the rod mass as effective mass
    std::printf("h = 1/60, eps = 1e-8, tau = 2h  =>  ERP = %.6g, CFM = %.6g; MuJoCo solref = (%.3g s, %.3g) (refsafe "
                "clamps timeconst to 2h = %.4g s), solimp (0.99, 0.999, 0.001); ladder released horizontal\n",
                erpCfm.erp, erpCfm.cfm, solref.timeconst, solref.dampratio, 2 * h);
    shortWindows(h, T, erpCfm, solref);
  }
  dCloseODE();
  return 0;
}
