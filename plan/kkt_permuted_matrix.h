// plan/kkt_permuted_matrix.h — the KKT LDL^T's copy of the matrix in its elimination order (plan/kkt_ldl_solver.h):
// the upper triangle of P A P^T by columns, built from Ipopt's triplets for each factorisation and kept beside the
// factor for the solve's refinement, with each row's largest |entry| for the pivot tests.
#pragma once

#include "plan/kkt_ldl_solver.h"
#include "plan/kkt_ordering.h"

namespace varsim::kkt {

// The upper triangle of P A P^T by columns into Ap, Ai, Ax (duplicates kept: the factorisation sums them) and each
// row's largest |entry|. With complete row patterns (`rows`: this pattern and order) the triplets' places in Ax come
// from the record; else they are counted out (into the record when one is being made). The same Ap, Ai and Ax either
// way, and the same rowMax (a largest |entry| does not depend on the order it is taken in), permuted from
// `knownRowMax` (the pattern's numbering) when given. `pinv` and `next` are n ints of work.
void scatterMatrix(const Pattern& a, const int* perm, const double* values, int* Ap, int* Ai, double* Ax,
                   double* rowMax, const double* knownRowMax, int* pinv, int* next, RowPatterns* rows);

}  // namespace varsim::kkt
