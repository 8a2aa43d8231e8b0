//! Seeded lots (抽签): every random choice of the pairing and draw code comes from here.
//!
//! Why a shuffle of its own: `rand`'s shuffle may change its output between minor versions, so an
//! audited draw uses its own small Fisher–Yates shuffle over a ChaCha20 stream. The stream is fully
//! determined by a stored `u64` seed and a stream number (one per purpose, see [`Stream`]), so any
//! lot can be replayed and shown to a player. The output for a fixed seed is pinned by a snapshot
//! test below: if it ever changes, stored draws could no longer be replayed, so that test must
//! never be "updated".
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

impl Stream {
    /// Every stream, for reading a stream number back.
    pub const ALL: [Stream; 9] = [
        Stream::Round1,
        Stream::Bye,
        Stream::Colour,
        Stream::DoubleLoss,
        Stream::Nigiri,
        Stream::GroupOrder,
        Stream::Knockout,
        Stream::Standings,
        Stream::Synthetic,
    ];

    /// The ChaCha stream number (what the public pages show).
    pub fn number(self) -> u64 {
        self as u64
    }

    /// The stream with this number.
    pub fn from_number(n: u64) -> Option<Stream> {
        Stream::ALL.into_iter().find(|s| s.number() == n)
    }
}

/// How a lot turns its candidates into its outcome, named on the public pages so an outsider
/// can replay it (`crate::draw::draw` is the reference implementation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    /// The outcome is the candidates shuffled by [`Lot::shuffle`] (Fisher–Yates: for i from
    /// the last index down to 1, swap i with `below(i + 1)`).
    Shuffle,
    /// The outcome is the one candidate at index `below(n)` of the n candidates.
    Pick,
    /// A nigiri performed from the seed ([`super::nigiri::perform`]): candidates holder and
    /// guesser; one word skipped, the grab `5 + below(36)` stones, the guess a coin
    /// (`below(2) = 1`: odd); the outcome is Black, the grab and the stones the guesser
    /// showed (1 = odd, 2 = even).
    Nigiri,
}

impl Method {
    pub fn code(self) -> &'static str {
        match self {
            Method::Shuffle => "shuffle",
            Method::Pick => "pick",
            Method::Nigiri => "nigiri",
        }
    }

    pub fn from_code(s: &str) -> Option<Method> {
        [Method::Shuffle, Method::Pick, Method::Nigiri].into_iter().find(|m| m.code() == s)
    }
}

/// What a lot decided (typed, so every page renders it in its reader's language).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Purpose {
    /// Swiss round 1 (rules.md §14.2): the lot order of the field. The round-1 order is the
    /// setting's (rank, then rating…) with players it holds equal in this lot order, or this
    /// order itself when the setting is a pure lot.
    Round1Order,
    /// Round 1: the upper half draws the odd lot numbers 1, 3, 5… in this order.
    Round1Upper,
    /// Round 1: the lower half draws the even lot numbers 2, 4, 6… in this order.
    Round1Lower,
    /// Later rounds: the order of one score group (`score` in half points), which decides
    /// who meets whom among equals.
    ScoreGroup { score: i32 },
    /// The bye order (rules.md §14.5): candidates equal for the bye in this lot order.
    Bye,
    /// Colours by lot (rules.md §4.1): the one drawn takes Black.
    Colours,
    /// Nigiri: who holds the stones, when rank and age do not decide (Art. 10).
    NigiriHolder,
    /// A remote nigiri performed from the seed (rules.md §4.2).
    RemoteNigiri,
    /// Round robin: Berger numbers 1, 2, 3… in this order.
    BergerNumbers,
    /// Knockout: seeds 1, 2, 3… by rank, then rating; equal players in this lot order.
    KnockoutSeeding,
    /// Knockout: who advances from match `number`, drawn or lost by both.
    KnockoutMatch { number: u32 },
    /// A double loss of round `round` (rules.md §12): the nominal winner for the next
    /// round's pairing only.
    DoubleLoss { round: u32 },
    /// A record stored before purposes were typed: its text as stored, not replayed.
    Text { text: String },
}

impl Purpose {
    /// The purpose's code (its `kind` when stored), for programs reading the public pages.
    pub fn code(&self) -> &'static str {
        match self {
            Purpose::Round1Order => "round1_order",
            Purpose::Round1Upper => "round1_upper",
            Purpose::Round1Lower => "round1_lower",
            Purpose::ScoreGroup { .. } => "score_group",
            Purpose::Bye => "bye",
            Purpose::Colours => "colours",
            Purpose::NigiriHolder => "nigiri_holder",
            Purpose::RemoteNigiri => "remote_nigiri",
            Purpose::BergerNumbers => "berger_numbers",
            Purpose::KnockoutSeeding => "knockout_seeding",
            Purpose::KnockoutMatch { .. } => "knockout_match",
            Purpose::DoubleLoss { .. } => "double_loss",
            Purpose::Text { .. } => "text",
        }
    }

    /// The method of a lot of this purpose (`None` for an old record).
    pub fn method(&self) -> Option<Method> {
        Some(match self {
            Purpose::Round1Order
            | Purpose::Round1Upper
            | Purpose::Round1Lower
            | Purpose::ScoreGroup { .. }
            | Purpose::Bye
            | Purpose::BergerNumbers
            | Purpose::KnockoutSeeding => Method::Shuffle,
            Purpose::Colours
            | Purpose::NigiriHolder
            | Purpose::KnockoutMatch { .. }
            | Purpose::DoubleLoss { .. } => Method::Pick,
            Purpose::RemoteNigiri => Method::Nigiri,
            Purpose::Text { .. } => return None,
        })
    }
}

/// Reads a typed purpose, or the text of a record stored before purposes were typed.
fn purpose_or_text<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Purpose, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Stored {
        Typed(Purpose),
        Text(String),
    }
    Ok(match Stored::deserialize(d)? {
        Stored::Typed(p) => p,
        Stored::Text(text) => Purpose::Text { text },
    })
}

/// A stored record of one drawn lot: enough to replay it from the record alone (seed,
/// stream, the candidates in the order given to the lot, the method its purpose names) and
/// to show its outcome. Candidates and outcomes are **pairing numbers** (编号, the numbers
/// the entrant lists and the public pairings show), never database ids.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrawRecord {
    #[serde(deserialize_with = "purpose_or_text")]
    pub purpose: Purpose,
    pub seed: u64,
    pub stream: Stream,
    /// The candidates in the order handed to the lot: ascending pairing numbers.
    pub candidates: Vec<u32>,
    /// The outcome: the drawn order, the one drawn, or (nigiri) Black, grab and guess.
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
