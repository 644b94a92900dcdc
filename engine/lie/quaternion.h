// engine/lie/quaternion.h — unit quaternions, Hamilton convention, scalar first q = (w, x, y, z) stored in
// an Eigen::Vector4d, body->world (reference/README.md): R = (2w^2-1)I + 2 qv qv^T + 2w [qv]x.
// q and -q are the same rotation: compare with angleBetween, never component-wise.
#pragma once

#include "engine/lie/lie_types.h"

namespace varsim::quat {

using Quat = Vector4d;  // (w, x, y, z)

inline Quat identity() { return Quat(1.0, 0.0, 0.0, 0.0); }
Quat multiply(const Quat& q, const Quat& p);  // Hamilton product q p
Quat conjugate(const Quat& q);                // (w, -x, -y, -z)
Quat inverse(const Quat& q);                  // conjugate / |q|^2
Quat normalize(const Quat& q);
// Rotation matrix of q. Uses ((w^2-|qv|^2)I + 2 qv qv^T + 2w[qv]x)/|q|^2, which equals the formula above
// for |q| = 1 and stays orthonormal if q is slightly off the unit sphere.
Matrix3d toRotation(const Quat& q);
// Shepperd's method; returns the representative with w >= 0.
Quat fromRotation(const Matrix3d& R);
Vector3d rotate(const Quat& q, const Vector3d& p);  // R(q) p

// Quaternion exponential of a pure quaternion (seed 004 convention): exp(v) = (cos|v|, sin|v| v/|v|),
// the rotation by angle 2|v| about v. log is its inverse with |log q| in [0, pi] (principal branch).
Quat exp(const Vector3d& v);
Vector3d log(const Quat& q);
// Rotation-vector helpers: fromRotationVector(w) has toRotation == so3::exp(w); toRotationVector returns
// the shortest rotation vector (|w| <= pi, sign of q irrelevant).
Quat fromRotationVector(const Vector3d& w);
Vector3d toRotationVector(const Quat& q);

// Left/right multiplication matrices: multiply(q, p) = leftMatrix(q) p = rightMatrix(p) q.
Matrix4d leftMatrix(const Quat& q);
Matrix4d rightMatrix(const Quat& p);

// Rotation angle between q1 and q2 in [0, pi]: 2 acos|q1.q2| for unit q's, computed as
// 2 atan2(|vec(q1* q2)|, |scalar(q1* q2)|) (accurate also for tiny angles).
double angleBetween(const Quat& q1, const Quat& q2);

}  // namespace varsim::quat
