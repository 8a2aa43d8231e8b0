//! [`solve`]: the maximum-weight matching of a [`Problem`] on its complete graph — dense for
//! small problems, and for big ones sparse: a candidate graph, grown by the pairs the dual
//! check (crate docs) finds violated until there are none.

use std::collections::HashSet;

use crate::blossom::{max_weight_matching, max_weight_perfect_matching, warm_start, WarmStart};
use crate::certificate::Certificate;
use crate::result::{MatchResult, Work};
use crate::NONE;

/// Knobs of [`solve`]: how it works, never what it finds (every setting gives the optimum).
/// The defaults suit every field size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolverTuning {
    /// Problems up to this many vertices are matched on the complete graph.
    pub dense_limit: usize,
    /// In the sparse path, each vertex starts with edges to this many following vertices in
    /// the problem's order; missing edges that could improve the matching are added until the
    /// LP dual proves the matching optimal on the complete graph.
    pub candidates: usize,
    /// Solve the perfect-matching LP (the default) rather than the plain maximum-weight one
    /// with its greedy start: the same optimum (crate docs), from a start that leaves fewer
    /// vertices free. `false` is there to compare the two.
    pub perfect: bool,
}

impl Default for SolverTuning {
    fn default() -> Self {
        SolverTuning { dense_limit: 160, candidates: 10, perfect: true }
    }
}

/// A matching problem on the complete graph of vertices `0..len()`, listed so that good
/// partners are near each other (a pairing lists players in score order).
pub trait Problem {
    /// Number of vertices.
    fn len(&self) -> usize;
    /// Whether there are no vertices.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The weight of pair (a, b); must be positive (the graph is complete).
    fn weight(&self, a: usize, b: usize) -> i128;
    /// The class of a vertex, in `0..class_count()`.
    fn class(&self, v: usize) -> usize;
    fn class_count(&self) -> usize;
    /// An upper bound of `weight(a, b)` over all `a` in class `ca` and `b` in class `cb`.
    fn class_bound(&self, ca: usize, cb: usize) -> i128;
    /// A vertex joined to every other one in the candidate graph (e.g. the bye).
    fn is_hub(&self, v: usize) -> bool;
    /// Which of two kinds of partner the vertex would rather have (−1, +1; 0: either), e.g.
    /// a player due Black; the candidate graph also joins each vertex to the next ones of the
    /// opposite leaning. Only a hint for the start: the dual check keeps the result exact.
    fn leaning(&self, _v: usize) -> i32 {
        0
    }
}

/// How far ahead in the problem's order a vertex looks for partners of the opposite leaning, in
/// multiples of `candidates`.
const LEANING_REACH: usize = 8;

/// Joins each vertex with a leaning to up to `k` of the following vertices (within
/// `LEANING_REACH · k` places) of the opposite leaning: in a pairing with balanced colours
/// the best partner inside a score group is often one due the other colour, further away
/// than the next `k`. Without these edges the dual check finds those pairs violated and adds
/// them round by round: on a big field, far more edges and rounds than these few.
fn add_leaning_candidates(
    p: &impl Problem,
    k: usize,
    present: &mut HashSet<u64>,
    edges: &mut Vec<(usize, usize, i128)>,
) {
    let n = p.len();
    let leaning: Vec<i32> = (0..n).map(|v| if p.is_hub(v) { 0 } else { p.leaning(v) }).collect();
    for a in 0..n {
        if leaning[a] == 0 {
            continue;
        }
        let end = n.min(a + 1 + LEANING_REACH * k);
        let mut added = 0;
        for b in a + 1..end {
            if added == k {
                break;
            }
            if leaning[b] == -leaning[a] {
                added += 1;
                if present.insert(((a as u64) << 32) | b as u64) {
                    edges.push((a, b, p.weight(a, b)));
                }
            }
        }
    }
}

/// Members of one class inside one blossom group: (group, [(dual, vertex)] by dual).
type DualBucket = (usize, Vec<(i128, usize)>);

/// Statistics of a [`solve`] run (for the benchmark and tests).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SolveStats {
    pub dense: bool,
    pub rounds: usize,
    pub edges: usize,
    pub added_edges: usize,
    /// Pairs outside the candidate graph whose slack the dual check computed.
    pub scanned: usize,
    /// The blossom solver's work, summed over the rounds.
    pub work: Work,
}

/// The perfect matching (every field has one, and its base weight makes a maximum-weight
/// matching perfect), or — should a graph have none — the maximum-weight matching.
fn perfect_or_not(n: usize, edges: &[(usize, usize, i128)], warm: Option<&WarmStart>) -> MatchResult {
    max_weight_perfect_matching(n, edges, warm).unwrap_or_else(|| max_weight_matching(n, edges, true))
}

/// One solve of [`solve`]: perfect mode unless the tuning asks for the plain solver.
fn solve_once(
    tuning: SolverTuning,
    n: usize,
    edges: &[(usize, usize, i128)],
    warm: Option<&WarmStart>,
) -> MatchResult {
    if tuning.perfect {
        perfect_or_not(n, edges, warm)
    } else {
        max_weight_matching(n, edges, true)
    }
}

/// Maximum-weight matching of `p` on its complete graph: dense for small problems, sparse
/// with the dual check (crate docs) for bigger ones. Returns `mate` and statistics.
pub fn solve(p: &impl Problem, tuning: SolverTuning) -> (Vec<Option<usize>>, SolveStats) {
    let n = p.len();
    let mut stats = SolveStats::default();
    if n <= tuning.dense_limit.max(2) {
        let mut edges = Vec::with_capacity(n * n.saturating_sub(1) / 2);
        for a in 0..n {
            for b in a + 1..n {
                edges.push((a, b, p.weight(a, b)));
            }
        }
        stats.dense = true;
        stats.rounds = 1;
        stats.edges = edges.len();
        let res = solve_once(tuning, n, &edges, None);
        stats.work = res.work;
        return (res.mate, stats);
    }
    let k = tuning.candidates.max(1);
    let mut present: HashSet<u64> = HashSet::new();
    let key = |a: usize, b: usize| -> u64 { ((a.min(b) as u64) << 32) | a.max(b) as u64 };
    let mut edges = Vec::new();
    let hubs: Vec<usize> = (0..n).filter(|&v| p.is_hub(v)).collect();
    for a in 0..n {
        if p.is_hub(a) {
            continue;
        }
        let mut added = 0;
        let mut b = a + 1;
        while b < n && added < k {
            if !p.is_hub(b) {
                present.insert(key(a, b));
                edges.push((a, b, p.weight(a, b)));
                added += 1;
            }
            b += 1;
        }
    }
    add_leaning_candidates(p, k, &mut present, &mut edges);
    for &h in &hubs {
        for v in 0..n {
            if v != h && present.insert(key(h, v)) {
                edges.push((h.min(v), h.max(v), p.weight(h, v)));
            }
        }
    }
    // Members of each class, bucketed after each solve by top-level blossom (see below).
    let classes = p.class_count();
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); classes];
    for v in 0..n {
        if !p.is_hub(v) {
            members[p.class(v)].push(v);
        }
    }
    // The class bounds, once: the scan below reads one for every (vertex, class).
    let bounds: Vec<i128> = (0..classes)
        .flat_map(|ca| (0..classes).map(move |cb| (ca, cb)))
        .map(|(ca, cb)| p.class_bound(ca, cb))
        .collect();
    let mut warm: Option<WarmStart> = None;
    loop {
        stats.rounds += 1;
        let res = solve_once(tuning, n, &edges, warm.as_ref());
        stats.work.free_at_start += res.work.free_at_start;
        stats.work.stages += res.work.stages;
        stats.work.dual_steps += res.work.dual_steps;
        // A pair inside one top-level blossom B gets 2·dual[B] in its slack. Group the
        // vertices by top-level blossom with a positive dual (group NONE: all others), so
        // each scan compares raw duals across groups and raw duals + 2·dual[B] inside B.
        let mut group = vec![NONE; n];
        for (v, g) in group.iter_mut().enumerate() {
            let mut top = v;
            while let Some(b) = res.parent[top] {
                top = b;
            }
            if top != v && res.dual[top] > 0 {
                *g = top;
            }
        }
        let by_dual: Vec<Vec<DualBucket>> = members
            .iter()
            .map(|m| {
                let mut l: Vec<(usize, i128, usize)> =
                    m.iter().map(|&v| (group[v], res.dual[v], v)).collect();
                l.sort_unstable();
                let mut out: Vec<DualBucket> = Vec::new();
                for (g, d, v) in l {
                    match out.last_mut() {
                        Some((lg, list)) if *lg == g => list.push((d, v)),
                        _ => out.push((g, vec![(d, v)])),
                    }
                }
                out
            })
            .collect();
        let cert = Certificate::new(&res);
        let mut violations = Vec::new();
        let mut seen: HashSet<u64> = HashSet::new();
        let mut scanned = 0usize;
        for (u, &gu) in group.iter().enumerate() {
            if p.is_hub(u) {
                continue;
            }
            let cu = p.class(u);
            for (cv, groups) in by_dual.iter().enumerate() {
                let ub = bounds[cu * classes + cv];
                let bound = 2 * ub - res.dual[u];
                for (g, list) in groups {
                    let threshold = if *g != NONE && *g == gu { bound - 2 * res.dual[*g] } else { bound };
                    for &(dv, v) in list {
                        if dv >= threshold {
                            break;
                        }
                        // Cheap first: with the bound instead of the weight, and shared
                        // blossoms counted, most pairs already have slack ≥ 0.
                        if v == u || cert.slack(u, v, ub) >= 0 || present.contains(&key(u, v)) {
                            continue;
                        }
                        scanned += 1;
                        let w = p.weight(u, v);
                        if cert.slack(u, v, w) < 0 && seen.insert(key(u, v)) {
                            violations.push((u.min(v), u.max(v), w));
                        }
                    }
                }
            }
        }
        stats.scanned += scanned;
        if violations.is_empty() {
            stats.edges = edges.len();
            return (res.mate, stats);
        }
        stats.added_edges += violations.len();
        if tuning.perfect {
            warm = Some(warm_start(&res, &edges, &violations));
        }
        for (u, v, w) in violations {
            present.insert(key(u, v));
            edges.push((u, v, w));
        }
    }
}
