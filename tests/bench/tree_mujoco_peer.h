// tests/bench/tree_mujoco_peer.h — the peer for bench_tree (issue 11): the same N-link pendulum in MuJoCo
// 2.2 (Debian libmujoco-dev; optional, found at configure time like ODE for bench_ladder_ode). The model is
// an MJCF string built here: per link a body on a hinge about y at its parent's end, a 1 kg point mass
// (inertia 1e-9 kg m^2, MuJoCo needs one) at the far end of a massless rod of 1/N m, no geoms/contacts,
// no damping, gravity -9.81 z. qpos/qvel are our relative angles/rates, so energies come from our tree.
#pragma once

#ifdef VARSIM_HAVE_MUJOCO
#include <mujoco/mujoco.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>

namespace bench {

inline std::string pendulumMjcf(int links, double mass, double length, bool rk4, double h = 0.01) {
  std::string x = "<mujoco><option timestep=\"" + std::to_string(h) + "\" gravity=\"0 0 -9.81\" integrator=\"" +
                  std::string(rk4 ? "RK4" : "Euler") + "\"/><worldbody>";
  for (int l = 0; l < links; ++l) {
    x += "<body pos=\"0 0 " + std::to_string(l == 0 ? 0.0 : -length) + "\"><joint type=\"hinge\" axis=\"0 1 0\"/>";
    x += "<inertial pos=\"0 0 " + std::to_string(-length) + "\" mass=\"" + std::to_string(mass) +
         "\" diaginertia=\"1e-9 1e-9 1e-9\"/>";
  }
  for (int l = 0; l < links; ++l) x += "</body>";
  return x + "</worldbody></mujoco>";
}

// MuJoCo's warnings (e.g. the bad acceleration of a blow-up) go to a MUJOCO_LOG.TXT in the working
// directory by default; the bench reads d->warning instead and keeps the directory clean.
inline void quietWarnings() {
  mju_user_warning = [](const char*) {};
}

// Loads an MJCF string through MuJoCo's virtual file system; throws with MuJoCo's message.
inline mjModel* loadMjcf(const std::string& xml) {
  quietWarnings();
  auto vfs = std::make_unique<mjVFS>();
  mj_defaultVFS(vfs.get());
  if (mj_makeEmptyFileVFS(vfs.get(), "chain.xml", static_cast<int>(xml.size())) != 0)
    throw std::runtime_error("mujoco: VFS full");
  const int i = mj_findFileVFS(vfs.get(), "chain.xml");
  std::memcpy(vfs->filedata[i], xml.data(), xml.size());
  char error[1000] = "";
  mjModel* m = mj_loadXML("chain.xml", vfs.get(), error, sizeof error);
  mj_deleteVFS(vfs.get());
  if (!m) throw std::runtime_error(std::string("mujoco: ") + error);
  return m;
}

}  // namespace bench
#endif
