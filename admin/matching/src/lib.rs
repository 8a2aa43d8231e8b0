//! Maximum-weight matching with exact integer weights: the blossom algorithm, and a sparse
//! solver that proves its answer optimal on the complete graph without looking at every pair.
//!
//! **Architecture Invariant:** this crate knows nothing of Go, players or tournaments —
//! weights in, a matching out. Its dependency list (std only) enforces it: the pairing code
//! that turns a field into vertices and weights lives with its caller, and reaches the engine
//! only through [`Problem`] and edge lists.
//!
//! [`max_weight_matching`] ([`blossom`]) is the primal–dual blossom algorithm (Edmonds;
//! Galil's O(n³) formulation with edge lists, written here from the published algorithm) on
//! an explicit edge list, with exact `i128` arithmetic. It returns the dual variables with the
//! matching, which is what makes the sparse path exact:
//!
//! **Sparse path** ([`solve`], in [`sparse`]): a dense O(n³) matching of 10,000 vertices is
//! far too slow and its n×n matrix too big. The caller lists vertices so that good partners
//! are near each other (a pairing: score groups from the top, players inside a group in a
//! seeded order). The solver:
//! 1. starts from a candidate graph: each vertex is joined to the next `candidates`
//!    vertices in that order (for a pairing: its own score group and the neighbouring
//!    ones), to the next `candidates` of the opposite leaning ([`Problem::leaning`], e.g.
//!    the colour a player is due) within a few times that many places, plus the "hub"
//!    vertices ([`Problem::is_hub`], e.g. the bye) joined to everyone;
//! 2. solves the maximum-weight **perfect** matching on that graph
//!    ([`max_weight_perfect_matching`]: the problem has an even number of vertices and all
//!    weights positive, so on the complete graph the two optima are the same) and keeps its
//!    duals `y`. In perfect mode duals are free in sign, so every vertex can lower its own
//!    dual and start matched, where the plain method's greedy start may only use edges of
//!    the one largest weight; each later round starts warm from the previous round's
//!    matching and duals. When few edges share the largest weight (a pairing's colour
//!    weights spread them), this leaves few vertices free at the start and so few stages;
//! 3. checks LP dual feasibility on the **complete** graph: `y_u + y_v (+ blossom duals) ≥
//!    2·w(u, v)` for every pair. It never evaluates all n² pairs: vertices are bucketed in
//!    classes ([`Problem::class`], e.g. score level and colour type) with a cheap upper bound
//!    of any weight between two classes, sorted by dual, and only pairs whose bound could
//!    violate the inequality are looked at; shared blossom duals come from an Euler tour of
//!    the blossom forest ([`Certificate`]), and the exact weight is computed only when the
//!    bound alone fails;
//! 4. adds every violating pair as an edge and solves again, until none is left.
//!
//! When the check passes, the matching is optimal on the complete graph (LP duality: primal
//! feasible, dual feasible, complementary slackness), so it has the dense optimum's total
//! weight; the property tests compare it with a dense reference solver on small fields.

pub mod blossom;
pub mod certificate;
pub mod result;
pub mod sparse;

pub use blossom::{max_weight_matching, max_weight_perfect_matching, warm_start, WarmStart};
pub use certificate::Certificate;
pub use result::{MatchResult, Work};
pub use sparse::{solve, Problem, SolveStats, SolverTuning};

/// "No vertex", "no blossom", "no edge" in the solvers' index arrays.
const NONE: usize = usize::MAX;
