//! What a solver run returns: the matching with its duals (the certificate of its optimum)
//! and what the run cost. A leaf: the blossom solver builds it, the certificate and the sparse
//! solver read it.

/// The result of [`max_weight_matching`](crate::max_weight_matching).
#[derive(Clone, Debug)]
pub struct MatchResult {
    /// `mate[v]` = partner of `v`, if matched.
    pub mate: Vec<Option<usize>>,
    /// Dual variables, doubled scale: `dual[u] + dual[v] − 2·w(u,v) + 2·Σ dual[b]` (over the
    /// blossoms `b ≥ n` containing both) is ≥ 0 for every edge, 0 for matched edges.
    pub dual: Vec<i128>,
    /// `parent[x]` = the blossom directly containing vertex or blossom `x` (blossoms are
    /// numbered `n..2n`), `None` at the top.
    pub parent: Vec<Option<usize>>,
    /// What the run cost (for the benchmark's report).
    pub work: Work,
}

/// The work of one solver run: vertices left free by its start, stages (one augmenting
/// path each), dual adjustments over all stages.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Work {
    pub free_at_start: usize,
    pub stages: usize,
    pub dual_steps: usize,
}

impl MatchResult {
    /// The slack of pair (u, v) with weight `w` under these duals (negative = violated).
    pub fn slack(&self, u: usize, v: usize, w: i128) -> i128 {
        let mut s = self.dual[u] + self.dual[v] - 2 * w;
        let mut up = Vec::new();
        let mut x = u;
        while let Some(b) = self.parent[x] {
            up.push(b);
            x = b;
        }
        if up.is_empty() {
            return s;
        }
        let mut x = v;
        while let Some(b) = self.parent[x] {
            if up.contains(&b) {
                s += 2 * self.dual[b];
            }
            x = b;
        }
        s
    }
}
