// engine/models/nonholonomic_model.h — what the nonholonomic integrator (seed 000 Sec. 3.2, eqs. (16)-(17))
// needs to know about a vehicle on Q = M x G: the shape dimension, the connection A(r), a basis
// e_b(r) of the constrained symmetry directions s_r, and the reduced Lagrangian l(r, u, xi) with its
// partial derivatives. N is the dimension of the Lie algebra (3 for SE(2), 6 for SE(3)).
#pragma once

#include <Eigen/Core>

namespace varsim {

template <int N>
class NonholonomicModel {
 public:
  using Algebra = Eigen::Matrix<double, N, 1>;          // xi or mu, ordered (angular, linear)
  using AlgebraMatrix = Eigen::Matrix<double, N, Eigen::Dynamic>;

  virtual ~NonholonomicModel() = default;
  virtual int shapeDim() const = 0;
  virtual int symmetryDim() const = 0;  // b = dim s_r (0 when the constraints leave no group freedom)

  // [A(r)] (N x shapeDim): g^{-1} g_dot + A(r) r_dot = Omega, Omega in s_r (seed 000 Sec. 3.2).
  virtual AlgebraMatrix connection(const Eigen::VectorXd& r) const = 0;
  // [e_1(r) .. e_b(r)] (N x b): span s_r, the body velocities that satisfy the constraints when the
  // shape is locked.
  virtual AlgebraMatrix symmetryBasis(const Eigen::VectorXd& r) const = 0;

  // Reduced Lagrangian l(r, u, xi) (kinetic only: its value is the energy) and its partials.
  virtual double lagrangian(const Eigen::VectorXd& r, const Eigen::VectorXd& u, const Algebra& xi) const = 0;
  virtual Eigen::VectorXd dLdu(const Eigen::VectorXd& r, const Eigen::VectorXd& u, const Algebra& xi) const = 0;
  virtual Eigen::VectorXd dLdr(const Eigen::VectorXd& r, const Eigen::VectorXd& u, const Algebra& xi) const = 0;
  virtual Algebra dLdxi(const Eigen::VectorXd& r, const Eigen::VectorXd& u, const Algebra& xi) const = 0;
};

}  // namespace varsim
