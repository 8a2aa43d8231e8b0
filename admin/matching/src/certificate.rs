//! Slacks of many pairs under one solve's duals, fast: what the sparse path's dual check
//! and the warm start read.

use crate::result::MatchResult;

/// Fast slacks for many pairs: the sum of blossom duals above each node, and the lowest
/// common blossom of two vertices in O(1) (an Euler tour of the blossom forest with a
/// sparse table of depths), so a pair's shared blossom duals cost two table look-ups.
/// Blossoms of big problems nest deep (most vertices a dozen blossoms down, inside a few
/// blossoms of thousands of vertices), where walking up the tree per pair was most of the
/// dual check.
pub struct Certificate<'a> {
    res: &'a MatchResult,
    /// For a blossom: its dual plus those of all blossoms containing it.
    cum: Vec<i128>,
    /// Position of a blossom in `tour` (`u32::MAX`: not in the forest).
    first: Vec<u32>,
    /// The top-level blossom containing a blossom.
    root: Vec<u32>,
    /// `sparse[k][i]` = the shallowest blossom of `tour[i..i + 2^k]`, as (depth, blossom).
    sparse: Vec<Vec<(u32, u32)>>,
}

impl<'a> Certificate<'a> {
    pub fn new(res: &'a MatchResult) -> Certificate<'a> {
        let m = res.parent.len();
        let n = m / 2;
        const UNKNOWN: u32 = u32::MAX;
        let mut depth = vec![UNKNOWN; m];
        let mut cum = vec![0i128; m];
        let mut stack = Vec::new();
        for x in 0..m {
            let mut y = x;
            while depth[y] == UNKNOWN {
                stack.push(y);
                match res.parent[y] {
                    Some(p) => y = p,
                    None => break,
                }
            }
            while let Some(z) = stack.pop() {
                let (d, c) = match res.parent[z] {
                    Some(p) => (depth[p] + 1, cum[p]),
                    None => (0, 0),
                };
                depth[z] = d;
                cum[z] = c + if z >= n { res.dual[z] } else { 0 };
            }
        }
        // The blossom forest: blossoms that contain something, children listed per parent.
        let mut kids: Vec<Vec<u32>> = vec![Vec::new(); m];
        let mut used = vec![false; m];
        for x in 0..m {
            if let Some(p) = res.parent[x] {
                used[p] = true;
                if x >= n {
                    kids[p].push(x as u32);
                }
            }
        }
        let mut first = vec![u32::MAX; m];
        let mut root = vec![u32::MAX; m];
        let mut tour: Vec<(u32, u32)> = Vec::new();
        let mut dfs: Vec<(usize, usize)> = Vec::new();
        for r in n..m {
            if !used[r] || res.parent[r].is_some() {
                continue;
            }
            root[r] = r as u32;
            first[r] = tour.len() as u32;
            tour.push((depth[r], r as u32));
            dfs.push((r, 0));
            while let Some(top) = dfs.last_mut() {
                let (x, i) = *top;
                if let Some(&c) = kids[x].get(i) {
                    top.1 += 1;
                    let c = c as usize;
                    root[c] = r as u32;
                    first[c] = tour.len() as u32;
                    tour.push((depth[c], c as u32));
                    dfs.push((c, 0));
                } else {
                    dfs.pop();
                    if let Some(&(p, _)) = dfs.last() {
                        tour.push((depth[p], p as u32));
                    }
                }
            }
        }
        let mut sparse = vec![tour];
        let mut span = 1usize;
        while 2 * span <= sparse[0].len() {
            let prev = sparse.last().expect("level 0");
            let next = (0..prev.len() - span).map(|i| prev[i].min(prev[i + span])).collect();
            sparse.push(next);
            span *= 2;
        }
        Certificate { res, cum, first, root, sparse }
    }

    /// The dual sum of the blossoms containing vertex `v`.
    pub fn enclosing(&self, v: usize) -> i128 {
        self.cum[v]
    }

    /// The dual sum of the blossoms containing both u and v.
    fn shared(&self, u: usize, v: usize) -> i128 {
        let (Some(a), Some(b)) = (self.res.parent[u], self.res.parent[v]) else { return 0 };
        if self.root[a] != self.root[b] {
            return 0;
        }
        let (fa, fb) = (self.first[a] as usize, self.first[b] as usize);
        let (l, r) = (fa.min(fb), fa.max(fb));
        let k = (usize::BITS - 1 - (r - l + 1).leading_zeros()) as usize;
        let lca = self.sparse[k][l].min(self.sparse[k][r + 1 - (1 << k)]).1;
        self.cum[lca as usize]
    }

    /// The slack of pair (u, v) with weight `w` (negative = dual infeasible).
    pub fn slack(&self, u: usize, v: usize, w: i128) -> i128 {
        self.res.dual[u] + self.res.dual[v] - 2 * w + 2 * self.shared(u, v)
    }
}
