//! Draws (抽签, 猜先): seeded lots, nigiri and the double-loss lot.
//!
//! Every random choice comes from [`lots::Lot`], a ChaCha20 stream keyed by a stored `u64`
//! seed, and is returned as a [`lots::DrawRecord`] so it can be stored, replayed and shown.
//! A record replays **from itself**: its seed and stream start a fresh lot, the method its
//! purpose names ([`lots::Method`]) turns the candidates (pairing numbers, ascending) into the
//! outcome, and [`draw`] is that computation — the one the engines use to make the record and
//! the one an outsider (or a test) runs on what the public pairings page shows.
//!
//! Each lot of a round has its own seed, [`derive_seed`] of the round's seed and a tag naming
//! the lot ([`tags`]), so one lot never depends on how many others were drawn before it.

pub mod double_loss;
pub mod lots;
pub mod nigiri;

use lots::{DrawRecord, Lot, Method, Purpose, Stream};

use crate::player::PlayerId;
pub use crate::player::Ticket;

/// Derives an independent seed for one item of a draw (a game, a table) from the round's
/// seed, so that each item's lot does not depend on how many other items were drawn.
/// SplitMix64 finaliser over `seed` and `tag`; stored in the item's [`lots::DrawRecord`].
pub fn derive_seed(seed: u64, tag: u64) -> u64 {
    let mut z = seed ^ tag.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The tags of a round's lots for [`derive_seed`]. Pinned: stored records name the seeds.
pub mod tags {
    /// Round 1: the lot order of the field.
    pub const ROUND1_ORDER: u64 = 0x5231_0001;
    /// Round 1: the upper half's lot numbers.
    pub const ROUND1_UPPER: u64 = 0x5231_0002;
    /// Round 1: the lower half's lot numbers.
    pub const ROUND1_LOWER: u64 = 0x5231_0003;
    /// Round robin: the Berger numbers.
    pub const BERGER: u64 = 0x4245_5247;
    /// Knockout: the seeding of round 1.
    pub const KNOCKOUT_SEEDING: u64 = 0x4b53_0000;
    /// The bye order among equals.
    pub const BYE: u64 = 0x4259_0000;

    /// The score group at `index` in score order (0 = the top group).
    pub fn score_group(index: usize) -> u64 {
        0x4752_0000_0000 + index as u64
    }

    /// Colours by lot at a table (its number when drawn).
    pub fn colours(table: u32) -> u64 {
        0x434c_0000 + u64::from(table)
    }

    /// A table's nigiri: who holds the stones, and a nigiri performed from the seed.
    pub fn nigiri(table: u32) -> u64 {
        0x4e16_0000 + u64::from(table)
    }

    /// Knockout match `index` (from 0) of the previous round, decided by lot.
    pub fn knockout_match(index: usize) -> u64 {
        index as u64
    }
}

/// What `method` draws from `seed` and `stream` for `candidates`: the reference
/// implementation of every lot (module docs). Same arguments, same outcome, forever.
pub fn draw(method: Method, seed: u64, stream: Stream, candidates: &[u32]) -> Vec<u32> {
    let mut lot = Lot::new(seed, stream);
    match method {
        Method::Shuffle => {
            let mut v = candidates.to_vec();
            lot.shuffle(&mut v);
            v
        }
        Method::Pick if candidates.is_empty() => Vec::new(),
        Method::Pick => vec![candidates[lot.pick(candidates.len())]],
        Method::Nigiri => match candidates {
            &[holder, guesser] => {
                let roles = nigiri::NigiriRoles { holder, guesser, reason: nigiri::RoleReason::Lot };
                let r = nigiri::perform_with(roles, &mut lot);
                vec![r.black, r.grab, if r.guess == nigiri::Guess::Odd { 1 } else { 2 }]
            }
            _ => Vec::new(),
        },
    }
}

impl DrawRecord {
    /// A record of `purpose` drawn by [`draw`] over `candidates` (pairing numbers, ascending).
    pub fn drawn(purpose: Purpose, seed: u64, stream: Stream, candidates: Vec<u32>) -> DrawRecord {
        let outcome = purpose.method().map(|m| draw(m, seed, stream, &candidates)).unwrap_or_default();
        DrawRecord { purpose, seed, stream, candidates, outcome }
    }

    /// Whether the record replays: [`draw`] of its method, seed, stream and candidates gives
    /// its outcome. `None` for a record stored before purposes were typed.
    pub fn replays(&self) -> Option<bool> {
        let m = self.purpose.method()?;
        Some(draw(m, self.seed, self.stream, &self.candidates) == self.outcome)
    }
}

/// Draws a lot of `purpose` over `players`: the candidates are their pairing numbers in
/// ascending order; the outcome is read back as players.
fn lot_over(purpose: Purpose, seed: u64, stream: Stream, players: &[Ticket]) -> (Vec<PlayerId>, DrawRecord) {
    let mut sorted = players.to_vec();
    sorted.sort_by_key(|t| t.number);
    let rec = DrawRecord::drawn(purpose, seed, stream, sorted.iter().map(|t| t.number).collect());
    let id = |n: &u32| sorted.iter().find(|t| t.number == *n).map(|t| t.id);
    let out = rec.outcome.iter().filter_map(id).collect();
    (out, rec)
}

/// The players in the order of a shuffle of `purpose` (Fisher–Yates over their numbers).
pub fn shuffle(
    purpose: Purpose,
    seed: u64,
    stream: Stream,
    players: &[Ticket],
) -> (Vec<PlayerId>, DrawRecord) {
    lot_over(purpose, seed, stream, players)
}

/// One of `players` drawn by a lot of `purpose`.
pub fn pick(purpose: Purpose, seed: u64, stream: Stream, players: &[Ticket]) -> (PlayerId, DrawRecord) {
    let (out, rec) = lot_over(purpose, seed, stream, players);
    (out.first().copied().unwrap_or_default(), rec)
}

/// The players sorted by `key` (ascending), players with equal keys in the order of a
/// recorded shuffle of the whole field. No lot is drawn when no two keys are equal.
pub fn order_by_key<K: Ord + Clone>(
    players: &[(Ticket, K)],
    purpose: Purpose,
    seed: u64,
    stream: Stream,
) -> (Vec<PlayerId>, Option<DrawRecord>) {
    let mut keys: Vec<&K> = players.iter().map(|(_, k)| k).collect();
    keys.sort();
    let ties = keys.windows(2).any(|w| w[0] == w[1]);
    let mut order: Vec<&(Ticket, K)> = players.iter().collect();
    order.sort_by_key(|(t, _)| t.number);
    let rec = if ties {
        let tickets: Vec<Ticket> = order.iter().map(|(t, _)| *t).collect();
        let (lot, rec) = shuffle(purpose, seed, stream, &tickets);
        order.sort_by_key(|(t, _)| lot.iter().position(|id| *id == t.id));
        Some(rec)
    } else {
        None
    };
    // Stable: equal keys keep the lot order.
    order.sort_by(|a, b| a.1.cmp(&b.1));
    (order.iter().map(|(t, _)| t.id).collect(), rec)
}

/// Colours by lot for a game of `a` and `b` (rules.md §4.1): the one drawn takes Black.
/// Returns (Black, White) and the record.
pub fn colours_by_lot(a: Ticket, b: Ticket, seed: u64) -> (PlayerId, PlayerId, DrawRecord) {
    let (black, rec) = pick(Purpose::Colours, seed, Stream::Colour, &[a, b]);
    let white = if black == a.id { b.id } else { a.id };
    (black, white, rec)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derive_seed_is_pinned() {
        // Pinned: stored draws replay from derived seeds.
        assert_eq!(super::derive_seed(0, 0), 0);
        assert_ne!(super::derive_seed(1, 2), super::derive_seed(2, 1));
    }

    fn t(id: u32, number: u32) -> Ticket {
        Ticket { id, number }
    }

    #[test]
    fn lots_record_pairing_numbers_and_replay_from_the_record() {
        // Ids 40, 12, 33 are pairing numbers 3, 1, 2.
        let players = [t(40, 3), t(12, 1), t(33, 2)];
        let (order, rec) = shuffle(Purpose::Round1Upper, 7, Stream::Round1, &players);
        assert_eq!(rec.candidates, vec![1, 2, 3], "ascending pairing numbers, not ids");
        let numbers: Vec<u32> =
            order.iter().map(|id| players.iter().find(|p| p.id == *id).unwrap().number).collect();
        assert_eq!(rec.outcome, numbers);
        assert_eq!(rec.outcome, draw(Method::Shuffle, 7, Stream::Round1, &[1, 2, 3]));
        assert_eq!(rec.replays(), Some(true));
        let mut bad = rec.clone();
        bad.outcome.reverse();
        assert_eq!(bad.replays(), Some(false));
        let (one, rec) = pick(Purpose::Colours, 9, Stream::Colour, &players[..2]);
        assert_eq!(rec.candidates, vec![1, 3]);
        assert!(one == 40 || one == 12);
        assert_eq!(rec.replays(), Some(true));
    }

    #[test]
    fn order_by_key_breaks_ties_by_the_recorded_lot_only() {
        let distinct = [(t(1, 1), 3), (t(2, 2), 1), (t(3, 3), 2)];
        let (order, rec) = order_by_key(&distinct, Purpose::Bye, 5, Stream::Bye);
        assert_eq!((order, rec), (vec![2, 3, 1], None), "no tie, no lot");
        let tied = [(t(1, 1), 0), (t(2, 2), 0), (t(3, 3), -1), (t(4, 4), 0)];
        for seed in 0..30 {
            let (order, rec) = order_by_key(&tied, Purpose::Bye, seed, Stream::Bye);
            let rec = rec.expect("ties are drawn");
            assert_eq!(order[0], 3, "the key first");
            let rest: Vec<u32> = rec.outcome.iter().copied().filter(|n| *n != 3).collect();
            assert_eq!(order[1..].to_vec(), rest, "equal keys in the lot's order");
            assert_eq!(rec.replays(), Some(true));
        }
    }

    #[test]
    fn nigiri_draws_replay() {
        let out = draw(Method::Nigiri, 11, Stream::Nigiri, &[4, 9]);
        let roles = nigiri::NigiriRoles { holder: 4, guesser: 9, reason: nigiri::RoleReason::Lot };
        let r = nigiri::perform(roles, 11);
        assert_eq!(out, vec![r.black, r.grab, if r.guess == nigiri::Guess::Odd { 1 } else { 2 }]);
    }

    #[test]
    fn records_stored_before_typed_purposes_still_load() {
        let old = r#"{"purpose":"bye: order","seed":3,"stream":"Bye","candidates":[1,2],"outcome":[2,1]}"#;
        let rec: DrawRecord = serde_json::from_str(old).unwrap();
        assert_eq!(rec.purpose, Purpose::Text { text: "bye: order".into() });
        assert_eq!(rec.replays(), None);
        let new = DrawRecord::drawn(Purpose::ScoreGroup { score: 4 }, 3, Stream::GroupOrder, vec![1, 2, 5]);
        let back: DrawRecord = serde_json::from_str(&serde_json::to_string(&new).unwrap()).unwrap();
        assert_eq!(back, new);
        let kind = serde_json::to_value(&new.purpose).unwrap();
        assert_eq!(kind["kind"], new.purpose.code(), "the code is the stored kind");
        for s in Stream::ALL {
            assert_eq!(Stream::from_number(s.number()), Some(s));
        }
    }
}
