// engine/tree/pendulum_chain.cpp — builds the N-link pendulum tree (see
// pendulum_chain.h).
#include "engine/tree/pendulum_chain.h"

#include <cmath>
#include <string>

#include "engine/sim/errors.h"

namespace varsim::tree {

namespace {
void checkChain(int links, double mass, double length) {
  if (links < 1 || !std::isfinite(mass) || mass <= 0 || !std::isfinite(length) || length <= 0) {
    throw BadInput("pendulum chain: need links >= 1 (got " + std::to_string(links) + "), mass > 0 and length > 0");
  }
}
}  // namespace

Tree pendulumChain(int links, double mass, double length) {
  checkChain(links, mass, length);
  Tree t;
  int parent = Tree::kWorld;
  for (int l = 0; l < links; ++l) {
    const int hinge = t.addFrame(parent, Joint::RotY, Drive::Dynamic);
    parent = t.addFrame(hinge, Joint::TransZ, Drive::Constant, -length);
    t.addMass(parent, mass, Matrix3d::Zero());
  }
  return t;
}

Tree rodChain(int links, double mass, double length) {
  checkChain(links, mass, length);
  const double across = mass * length * length / 12;
  Tree t;
  int parent = Tree::kWorld;
  for (int l = 0; l < links; ++l) {
    const int hinge = t.addFrame(parent, Joint::RotY, Drive::Dynamic);
    const int centre = t.addFrame(hinge, Joint::TransZ, Drive::Constant, -length / 2);
    t.addMass(centre, mass, Eigen::Vector3d(across, across, 0).asDiagonal());
    parent = t.addFrame(centre, Joint::TransZ, Drive::Constant, -length / 2);
  }
  return t;
}

}  // namespace varsim::tree
