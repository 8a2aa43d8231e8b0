//! Nigiri (猜先), rules.md §4.2 (2002 rules Art. 10).
//!
//! 1. **Who grabs:** the higher-ranked player takes a handful of white stones, hidden. With
//!    equal ranks the **older** player grabs. (Event variant, §4.2 item 4: the player with
//!    the larger pairing number grabs.)
//! 2. **Guess:** the other player shows one black stone ("odd: I take Black") or two
//!    ("even: I take Black").
//! 3. **Reveal:** a correct guess → the guesser plays Black; otherwise the grabber does.
//!
//! When the rules cannot decide the grabber (equal ranks, ages unknown or equal) a seeded lot
//! decides, and the lot is recorded. A remote nigiri (no board) draws the grab count and the
//! guess from a seed; an arbiter-entered nigiri records the real grab and guess.

use serde::{Deserialize, Serialize};

use super::lots::{DrawRecord, Lot, Purpose, Stream};
use crate::player::{Player, PlayerId};

/// Which rule names the grabber.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum NigiriRule {
    /// Art. 10: higher rank grabs, then the older player.
    Art10,
    /// Event variant (rules.md §4.2 item 4): the larger pairing number grabs
    /// ([`Player::number`], the number the entrant lists show).
    PairingNumber,
}

/// Why the holder holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RoleReason {
    HigherRank,
    Older,
    LargerPairingNumber,
    /// The rules did not decide (equal rank, no or equal birth dates): a drawn lot did.
    Lot,
}

/// Who holds the stones (grabs white) and who guesses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NigiriRoles {
    pub holder: PlayerId,
    pub guesser: PlayerId,
    pub reason: RoleReason,
}

/// The guesser's call.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Guess {
    /// One black stone shown: "odd, I take Black".
    Odd,
    /// Two black stones shown: "even, I take Black".
    Even,
}

/// A nigiri's outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NigiriRecord {
    pub holder: PlayerId,
    pub guesser: PlayerId,
    /// Number of white stones in the hand.
    pub grab: u32,
    pub guess: Guess,
    pub correct: bool,
    pub black: PlayerId,
    pub white: PlayerId,
    /// The seed of a remote nigiri; `None` when entered by an arbiter.
    pub seed: Option<u64>,
}

/// The nigiri roles of `a` and `b` under `rule`. If the rule does not decide, a lot with
/// `seed` does (one of the two by pairing number) and its record is returned too.
pub fn roles(a: &Player, b: &Player, rule: NigiriRule, seed: u64) -> (NigiriRoles, Option<DrawRecord>) {
    let decided = |holder: &Player, guesser: &Player, reason| NigiriRoles {
        holder: holder.id,
        guesser: guesser.id,
        reason,
    };
    match rule {
        NigiriRule::PairingNumber => {
            let (hi, lo) = if a.number > b.number { (a, b) } else { (b, a) };
            return (decided(hi, lo, RoleReason::LargerPairingNumber), None);
        }
        NigiriRule::Art10 => {
            if a.rank_value != b.rank_value {
                let (hi, lo) = if a.rank_value > b.rank_value { (a, b) } else { (b, a) };
                return (decided(hi, lo, RoleReason::HigherRank), None);
            }
            if let (Some(da), Some(db)) = (a.birth_date, b.birth_date) {
                if da != db {
                    let (old, young) = if da < db { (a, b) } else { (b, a) };
                    return (decided(old, young, RoleReason::Older), None);
                }
            }
        }
    }
    let (holder, rec) = super::pick(Purpose::NigiriHolder, seed, Stream::Nigiri, &[a.ticket(), b.ticket()]);
    let guesser = if holder == a.id { b.id } else { a.id };
    (NigiriRoles { holder, guesser, reason: RoleReason::Lot }, Some(rec))
}

/// The nigiri of a game of `a` and `b` at a table whose lots draw from `seed`: the roles
/// under `rule` (a recorded lot when the rule does not decide), and with `remote` the nigiri
/// performed from the seed (recorded too). Without an outcome the guesser stands as Black.
pub fn assign(a: &Player, b: &Player, rule: NigiriRule, seed: u64, remote: bool) -> Assigned {
    let (roles, rec) = roles(a, b, rule, seed);
    let mut draws: Vec<DrawRecord> = rec.into_iter().collect();
    let outcome = remote.then(|| perform(roles, seed));
    if outcome.is_some() {
        let number = |id: PlayerId| if id == a.id { a.number } else { b.number };
        draws.push(remote_record(number(roles.holder), number(roles.guesser), seed));
    }
    Assigned { roles, outcome, draws }
}

/// What [`assign`] decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assigned {
    pub roles: NigiriRoles,
    pub outcome: Option<NigiriRecord>,
    pub draws: Vec<DrawRecord>,
}

impl Assigned {
    /// (Black, White): the outcome's, else provisionally the guesser Black.
    pub fn colours(&self) -> (PlayerId, PlayerId) {
        match self.outcome {
            Some(o) => (o.black, o.white),
            None => (self.roles.guesser, self.roles.holder),
        }
    }
}

/// The record of a nigiri performed from `seed` between the holder and the guesser with these
/// pairing numbers (outcome: Black's number, the grab, the stones the guesser showed). It
/// replays as [`perform`] does (both are [`perform_with`]).
pub fn remote_record(holder: u32, guesser: u32, seed: u64) -> DrawRecord {
    DrawRecord::drawn(Purpose::RemoteNigiri, seed, Stream::Nigiri, vec![holder, guesser])
}

/// The colours that follow from a grab and a guess: a correct guess → the guesser is Black.
pub fn record_outcome(roles: NigiriRoles, grab: u32, guess: Guess) -> Result<NigiriRecord, String> {
    if grab == 0 {
        return Err("a nigiri grab holds at least one stone".into());
    }
    let odd = grab % 2 == 1;
    let correct = odd == (guess == Guess::Odd);
    let (black, white) = if correct { (roles.guesser, roles.holder) } else { (roles.holder, roles.guesser) };
    Ok(NigiriRecord {
        holder: roles.holder,
        guesser: roles.guesser,
        grab,
        guess,
        correct,
        black,
        white,
        seed: None,
    })
}

/// A remote nigiri performed from `seed`: the grab is drawn uniformly from 5..=40 stones
/// (a handful), the guess is a fair coin, and the colours follow as at the board.
pub fn perform(roles: NigiriRoles, seed: u64) -> NigiriRecord {
    let mut rec = perform_with(roles, &mut Lot::new(seed, Stream::Nigiri));
    rec.seed = Some(seed);
    rec
}

/// [`perform`] on a given lot (the seed is not recorded).
pub fn perform_with(roles: NigiriRoles, lot: &mut Lot) -> NigiriRecord {
    // Skip the word a role lot would have used, so roles and grab never share numbers.
    let _ = lot.next_u64();
    let grab = lot.range_inclusive(5, 40);
    let guess = if lot.coin() { Guess::Odd } else { Guess::Even };
    record_outcome(roles, grab, guess).expect("grab ≥ 5")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(id: u32, rank: i32, birth: Option<i32>) -> Player {
        let mut p = Player::new(id, rank);
        p.number = 100 - id;
        p.birth_date = birth;
        p
    }

    #[test]
    fn higher_rank_grabs() {
        let (r, rec) = roles(&p(1, -3, None), &p(2, 2, None), NigiriRule::Art10, 0);
        assert_eq!((r.holder, r.guesser, r.reason), (2, 1, RoleReason::HigherRank));
        assert!(rec.is_none());
    }

    #[test]
    fn equal_rank_older_grabs() {
        // 1 born on day 7000, 2 on day 9000: 1 is older.
        let (r, _) = roles(&p(2, 0, Some(9000)), &p(1, 0, Some(7000)), NigiriRule::Art10, 0);
        assert_eq!((r.holder, r.guesser, r.reason), (1, 2, RoleReason::Older));
    }

    #[test]
    fn undecided_goes_to_a_recorded_lot() {
        let (r, rec) = roles(&p(5, 0, None), &p(6, 0, Some(1)), NigiriRule::Art10, 77);
        assert_eq!(r.reason, RoleReason::Lot);
        let rec = rec.unwrap();
        assert_eq!(rec.candidates, vec![94, 95], "pairing numbers");
        assert_eq!(rec.outcome, vec![100 - r.holder]);
        assert_eq!(rec.replays(), Some(true));
        assert_eq!(roles(&p(5, 0, None), &p(6, 0, Some(1)), NigiriRule::Art10, 77).0, r);
    }

    #[test]
    fn pairing_number_variant() {
        // Ids 3 and 9 have pairing numbers 97 and 91: the larger number holds, not the id.
        let (r, _) = roles(&p(3, 5, None), &p(9, -5, None), NigiriRule::PairingNumber, 0);
        assert_eq!((r.holder, r.guesser), (3, 9));
    }

    #[test]
    fn correct_guess_takes_black() {
        let roles = NigiriRoles { holder: 1, guesser: 2, reason: RoleReason::HigherRank };
        let r = record_outcome(roles, 17, Guess::Odd).unwrap();
        assert!(r.correct);
        assert_eq!((r.black, r.white), (2, 1));
        let r = record_outcome(roles, 17, Guess::Even).unwrap();
        assert!(!r.correct);
        assert_eq!((r.black, r.white), (1, 2));
        let r = record_outcome(roles, 12, Guess::Even).unwrap();
        assert_eq!((r.black, r.white), (2, 1));
        assert!(record_outcome(roles, 0, Guess::Odd).is_err());
    }

    #[test]
    fn remote_nigiri_replays_and_is_consistent() {
        let roles = NigiriRoles { holder: 1, guesser: 2, reason: RoleReason::HigherRank };
        let mut blacks = [0; 3];
        for seed in 0..400 {
            let r = perform(roles, seed);
            assert_eq!(r, perform(roles, seed));
            assert!((5..=40).contains(&r.grab));
            assert_eq!(
                r,
                NigiriRecord { seed: Some(seed), ..record_outcome(roles, r.grab, r.guess).unwrap() }
            );
            blacks[r.black as usize] += 1;
            let rec = remote_record(1, 2, seed);
            assert_eq!(rec.outcome, vec![r.black, r.grab, if r.guess == Guess::Odd { 1 } else { 2 }]);
            assert_eq!(rec.replays(), Some(true));
        }
        assert!(blacks[1] > 150 && blacks[2] > 150, "{blacks:?}");
    }
}
