//! Seeded lots (抽签): every random choice of the pairing and draw code comes from here.
//!
//! Design rule (shared/design.md, "Draws"): `rand`'s shuffle may change its output between
//! minor versions, so an audited draw uses its own small Fisher–Yates shuffle over a ChaCha20
//! stream. The stream is fully determined by a stored `u64` seed and a stream number (one
//! per purpose, see [`Stream`]), so any lot can be replayed and shown to a player. The
//! output for a fixed seed is pinned by a snapshot test below: if it ever changes, stored
//! draws could no longer be replayed, so that test must never be "updated".
//!
//! Key expansion is ours, not `SeedableRng::seed_from_u64` (whose expansion is a library
//! detail): the 32-byte ChaCha key is the seed in little-endian in bytes 0..8, then zeros.

use rand_chacha::rand_core::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use serde::{Deserialize, Serialize};

/// The purpose of a lot. Each purpose draws from its own ChaCha stream of the same seed, so
/// adding a draw of one kind never shifts the numbers drawn for another kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Stream {
    /// Round 1 (rules.md §14.2): order of unrated players and the lot numbers of both halves.
    Round1 = 1,
    /// The bye among equal candidates (rules.md §14.5).
    Bye = 2,
    /// Colours by lot (rules.md §4.1).
    Colour = 3,
    /// The double-loss nominal winner (rules.md §12).
    DoubleLoss = 4,
    /// Remote nigiri (rules.md §4.2).
    Nigiri = 5,
    /// Order of players inside a score group, i.e. who meets whom among equals.
    GroupOrder = 6,
    /// Knockout: lots for drawn games and for colours.
    Knockout = 7,
    /// The last tie-break of the standings (rules.md §15.3: 抽签).
    Standings = 8,
    /// Synthetic data for benchmarks and tests; never used for a real event.
    Synthetic = 99,
}

/// A seeded lot: a ChaCha20 stream that knows its seed and stream, so the draw can be stored.
#[derive(Clone, Debug)]
pub struct Lot {
    rng: ChaCha20Rng,
    seed: u64,
    stream: Stream,
}

impl Lot {
    /// A lot for `seed` and `stream`. Same arguments → same numbers, forever.
    pub fn new(seed: u64, stream: Stream) -> Lot {
        let mut key = [0u8; 32];
        key[..8].copy_from_slice(&seed.to_le_bytes());
        let mut rng = ChaCha20Rng::from_seed(key);
        rng.set_stream(stream as u64);
        Lot { rng, seed, stream }
    }

    /// The seed this lot was made from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The stream (purpose) of this lot.
    pub fn stream(&self) -> Stream {
        self.stream
    }

    /// A raw 64-bit draw.
    pub fn next_u64(&mut self) -> u64 {
        self.rng.next_u64()
    }

    /// A uniform integer in `0..n` (unbiased: rejection sampling). `n` must be positive.
    pub fn below(&mut self, n: u64) -> u64 {
        assert!(n > 0, "Lot::below(0)");
        // 2^64 mod n values at the top form a partial bucket; reject them.
        let r = (u64::MAX % n + 1) % n;
        let limit = 0u64.wrapping_sub(r); // 2^64 − r (0 means "accept everything")
        loop {
            let x = self.rng.next_u64();
            if r == 0 || x < limit {
                return x % n;
            }
        }
    }

    /// A uniform integer in `lo..=hi`.
    pub fn range_inclusive(&mut self, lo: u32, hi: u32) -> u32 {
        assert!(lo <= hi);
        lo + self.below(u64::from(hi - lo) + 1) as u32
    }

    /// A fair coin.
    pub fn coin(&mut self) -> bool {
        self.below(2) == 1
    }

    /// Fisher–Yates (Durstenfeld) shuffle in place: for i from the last index down to 1,
    /// swap item i with a uniformly drawn j in 0..=i.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }

    /// Picks one index in `0..n`.
    pub fn pick(&mut self, n: usize) -> usize {
        self.below(n as u64) as usize
    }
}

/// A stored record of one drawn lot: enough to replay it (seed, stream, the candidates in
/// the order given to the lot) and to show its outcome.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrawRecord {
    /// What the lot decided, e.g. "bye", "round 1 upper half", "double loss round 3".
    pub purpose: String,
    pub seed: u64,
    pub stream: Stream,
    /// The candidates (player ids, or tables) in the order handed to the lot.
    pub candidates: Vec<u32>,
    /// The outcome: the chosen id(s) or the drawn order.
    pub outcome: Vec<u32>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Snapshot: pins the shuffle output. Never update these numbers: stored draws replay
    /// from them. A failure here means a dependency or the code changed the stream.
    #[test]
    fn snapshot_shuffle_is_pinned() {
        let mut lot = Lot::new(20261130, Stream::Round1);
        let mut v: Vec<u32> = (1..=16).collect();
        lot.shuffle(&mut v);
        assert_eq!(v, SNAPSHOT_SHUFFLE);
        let mut lot = Lot::new(0, Stream::Bye);
        let draws: Vec<u64> = (0..6).map(|_| lot.below(10)).collect();
        assert_eq!(draws, SNAPSHOT_BELOW);
        let mut lot = Lot::new(u64::MAX, Stream::Colour);
        assert_eq!(lot.next_u64(), SNAPSHOT_RAW);
    }

    const SNAPSHOT_SHUFFLE: [u32; 16] = [4, 14, 7, 11, 5, 12, 2, 13, 10, 16, 6, 3, 1, 15, 8, 9];
    const SNAPSHOT_BELOW: [u64; 6] = [2, 3, 4, 8, 2, 9];
    const SNAPSHOT_RAW: u64 = 16566555599534602983;

    #[test]
    fn same_seed_same_numbers_and_streams_differ() {
        let a: Vec<u64> = {
            let mut l = Lot::new(7, Stream::Bye);
            (0..8).map(|_| l.next_u64()).collect()
        };
        let b: Vec<u64> = {
            let mut l = Lot::new(7, Stream::Bye);
            (0..8).map(|_| l.next_u64()).collect()
        };
        let c: Vec<u64> = {
            let mut l = Lot::new(7, Stream::Colour);
            (0..8).map(|_| l.next_u64()).collect()
        };
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    #[test]
    fn below_is_in_range_and_roughly_uniform() {
        let mut l = Lot::new(3, Stream::Synthetic);
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            counts[l.below(6) as usize] += 1;
        }
        for c in counts {
            assert!((9_000..11_000).contains(&c), "{counts:?}");
        }
        for n in [1u64, 2, 3, 1 << 40, u64::MAX] {
            assert!(l.below(n) < n);
        }
    }

    #[test]
    fn shuffle_is_a_permutation() {
        let mut l = Lot::new(11, Stream::Synthetic);
        for len in 0..20u32 {
            let mut v: Vec<u32> = (0..len).collect();
            l.shuffle(&mut v);
            let mut s = v.clone();
            s.sort();
            assert_eq!(s, (0..len).collect::<Vec<_>>());
        }
    }
}
