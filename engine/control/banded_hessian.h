// engine/control/banded_hessian.h — the Hessian of an Nlp's Lagrangian  s d2f/dx2 + sum_i lambda_i d2g_i/dx2  by
// compressed forward differences of its exact gradient and Jacobian (Curtis-Powell-Reid colouring), for
// transcriptions whose variables come in blocks of `block` consecutive entries and whose every row and cost term
// touches at most two ADJACENT blocks (the DMOC segment structure): the Hessian then couples only blocks at
// distance <= 1, so all variables with the same offset in blocks k = r (mod 3) are perturbed together: 3 * block + 1
// gradient evaluations per Hessian, whatever N. Accuracy ~ 1e-7 relative (forward, step 1e-7 max(1, |x_j|); central
// differences cost twice as much and saved 5 of 91 iterations on heli_canyon) — what a Newton-type solver needs.
// The reference the transcriptions' own Hessians are checked against (test_dmoc_boat).
#pragma once

#include <vector>

#include "engine/control/nlp.h"

namespace varsim {

// Lower triangle (row >= col) of the symmetrised Hessian, every pair of variables in blocks at distance <= 1 listed
// (fixed pattern: independent of x, s, lambda).
void bandedFdHessian(const Nlp& nlp, int block, const Eigen::VectorXd& x, double objFactor,
                     const Eigen::VectorXd& lambda, std::vector<Eigen::Triplet<double>>& out);

}  // namespace varsim
