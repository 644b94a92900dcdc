// tests/bench/ladder_mujoco_peer.h — MuJoCo 2.2 twin of the SPOOK ladder for bench_ladder_ode (issue 16
// item 3; optional like ODE: only when libmujoco-dev was found, VARSIM_HAVE_MUJOCO). Every rod is a free
// body (mass 10, inertia m l²/12 across, 1e-3 of that along the axis, as in the ODE twin); the 4N+1 joints
// are `connect` equality constraints (pins: to the world) at the rod ends, satisfied in the defining pose.
// Softness from (ε, τ): toMujoco() with the rod mass as effective mass gives solref = (tc, dr) =
// (1/(ζω), ζ), ω = 1/√(ε m), ζ = τ/(2√(ε m)) (spook_conventions.h); MuJoCo's refsafe clamps tc to 2h, so
// at ε = 1e-8, τ = 2h the constraint is as stiff as MuJoCo allows. solimp = (0.99, 0.999, 0.001) (near hard).
#pragma once

#ifdef VARSIM_HAVE_MUJOCO
#include <mujoco/mujoco.h>

#include <Eigen/Geometry>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/integrators/spook_conventions.h"
#include "engine/models/ladder.h"

namespace bench {

struct MujocoLadder {
  mjModel* model = nullptr;
  mjData* data = nullptr;
  std::vector<std::pair<std::pair<int, double>, std::pair<int, double>>> joints;  // (rod, s) pairs; rod −1 = world
  double l = 1.0;
  ~MujocoLadder() {
    if (data) mj_deleteData(data);
    if (model) mj_deleteModel(model);
  }
  Eigen::Vector3d end(int rod, double s) const {
    if (rod < 0) return Eigen::Vector3d::Zero();
    const int b = rod + 1;  // body 0 is the world
    const Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>> R(data->xmat + 9 * b);
    return Eigen::Map<const Eigen::Vector3d>(data->xpos + 3 * b) + R.col(2) * (s * 0.5 * l);
  }
};

inline std::string num(double v) {
  char b[40];
  std::snprintf(b, sizeof b, "%.17g", v);
  return b;
}

// Builds the MJCF of `ladder` with the given solver ("Newton" | "PGS") and loads it with an arena of
// `stack` mjtNums (throws on failure).
inline std::unique_ptr<MujocoLadder> buildMujocoLadder(const varsim::Ladder& ladder, const char* solver, double h,
                                                       const varsim::MujocoSolref& solref, long stack) {
  using namespace varsim;
  auto L = std::make_unique<MujocoLadder>();
  const RodSystem& sys = ladder.system();
  const Eigen::VectorXd q = sys.initialState().q;
  L->l = ladder.config().rodLength;
  const double m = ladder.config().rodMass, I = m * L->l * L->l / 12.0;
  const int rows = 3 * int(sys.jointConstraintIndices().size());
  // No energy flag: mj_step would then compute the energy inside the timed step, which ours does not (both are
  // measured outside the timing, by the bench's sample functions).
  std::string x = "<mujoco><option timestep=\"" + num(h) + "\" gravity=\"0 0 -9.81\" integrator=\"Euler\" solver=\"" +
                  solver + "\" iterations=\"100\" jacobian=\"sparse\"><flag contact=\"disable\"/></option>";
  x += "<size njmax=\"" + std::to_string(rows + 16) + "\" nconmax=\"1\" nstack=\"" + std::to_string(stack) + "\"/>";
  x += "<default><equality solref=\"" + num(solref.timeconst) + " " + num(solref.dampratio) +
       "\" solimp=\"0.99 0.999 0.001\"/></default><worldbody>";
  for (size_t b = 0; b < sys.bodies().size(); ++b) {
    const Eigen::Vector3d c = q.segment<3>(sys.bodies()[b].offset), u = sys.direction(int(b), q);
    const Eigen::Quaterniond Q = Eigen::Quaterniond::FromTwoVectors(Eigen::Vector3d::UnitZ(), u);
    x += "<body name=\"r" + std::to_string(b) + "\" pos=\"" + num(c.x()) + " " + num(c.y()) + " " + num(c.z()) + "\" quat=\"" +
         num(Q.w()) + " " + num(Q.x()) + " " + num(Q.y()) + " " + num(Q.z()) + "\"><freejoint/><inertial pos=\"0 0 0\" mass=\"" +
         num(m) + "\" diaginertia=\"" + num(I) + " " + num(I) + " " + num(1e-3 * I) + "\"/></body>";
  }
  x += "</worldbody><equality>";
  for (int i : sys.jointConstraintIndices()) {
    const BodyPoint a = sys.anchor(i);
    const Eigen::Vector3d pa = sys.point(a, q);
    std::pair<int, double> ea{a.body, double(a.s)}, eb{-1, 0.0};
    if (sys.constraints()[size_t(i)].group != kGroupPins)
      for (size_t b = 0; b < sys.bodies().size() && eb.first < 0; ++b)
        for (int s : {-1, 1})
          if (int(b) != a.body && (sys.point({int(b), s}, q) - pa).norm() < 1e-12) eb = {int(b), double(s)};
    x += "<connect body1=\"r" + std::to_string(ea.first) + "\"" + (eb.first < 0 ? "" : " body2=\"r" + std::to_string(eb.first) + "\"") +
         " anchor=\"0 0 " + num(0.5 * ea.second * L->l) + "\"/>";
    L->joints.push_back({ea, eb});
  }
  x += "</equality></mujoco>";
  auto vfs = std::make_unique<mjVFS>();
  mj_defaultVFS(vfs.get());
  if (mj_makeEmptyFileVFS(vfs.get(), "ladder.xml", static_cast<int>(x.size())) != 0) throw std::runtime_error("mujoco: VFS full");
  std::memcpy(vfs->filedata[mj_findFileVFS(vfs.get(), "ladder.xml")], x.data(), x.size());
  char error[1000] = "";
  L->model = mj_loadXML("ladder.xml", vfs.get(), error, sizeof error);
  mj_deleteVFS(vfs.get());
  if (!L->model) throw std::runtime_error(std::string("mujoco: ") + error);
  L->data = mj_makeData(L->model);
  if (!L->data) throw std::runtime_error("mujoco: mj_makeData failed");
  mj_forward(L->model, L->data);
  return L;
}

// Twice the smallest arena (doubling from 2^20 mjtNums up to 2^28, 2 GB) with which the model loads: its dense
// nv × nv and constraint × nv work arrays grow as N², which is what stops MuJoCo 2.2 near N = 560.
inline std::unique_ptr<MujocoLadder> buildMujocoLadder(const varsim::Ladder& ladder, const char* solver, double h,
                                                       const varsim::MujocoSolref& solref) {
  for (long stack = 1L << 20;; stack *= 2) {
    try {
      buildMujocoLadder(ladder, solver, h, solref, stack);
      return buildMujocoLadder(ladder, solver, h, solref, 2 * stack);  // headroom: mj_step must not overflow
    } catch (const std::exception& e) {
      if (stack >= (1L << 28) || std::string(e.what()).find("Stack overflow") == std::string::npos) throw;
    }
  }
}

}  // namespace bench
#endif
