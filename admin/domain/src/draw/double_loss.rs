//! The double-loss lot (rules.md §12).
//!
//! A double loss (双方均负) is a native 0 : 0 result. Only when the event chooses the lot
//! fallback (2002 rules, note to Art. 17.5, referred to by 17.6 and 22.3: "drawing lots may
//! decide the round's pairing" when the program cannot record a double loss) does a lot
//! name a **nominal winner**, reading (a) of §12. The nominal result is used to pair the
//! **next round only**; it never enters standings, and the official result stays 0 : 0.
//! Every double loss takes it, whatever the cause (`GameResult::is_double_loss`): ruled at
//! the board, both late beyond the limit (Art. 22.3 sends that case to the principle of
//! Art. 17.5), both absent.

use super::derive_seed;
use super::lots::{DrawRecord, Purpose, Stream};
use super::Ticket;
use crate::player::{PlayedGame, PlayerId};

/// The nominal winner of a double-loss game for pairing the next round, and the record of
/// the lot (one of the two by pairing number; `number` gives a player's). If the game
/// already carries a drawn `nominal_winner`, that one is returned (the record then documents
/// how it was drawn, for the audit).
///
/// The lot's seed is derived from the round seed and the game (round, assigned Black,
/// assigned White), so each game's lot is independent of the others.
pub fn nominal_winner(
    round_seed: u64,
    game: &PlayedGame,
    number: &dyn Fn(PlayerId) -> u32,
) -> (PlayerId, DrawRecord) {
    let tag = (u64::from(game.round) << 42) ^ (u64::from(game.black) << 21) ^ u64::from(game.white);
    let seed = derive_seed(round_seed, tag);
    let sides = [game.black, game.white].map(|id| Ticket { id, number: number(id) });
    let (drawn, mut rec) =
        super::pick(Purpose::DoubleLoss { round: game.round }, seed, Stream::DoubleLoss, &sides);
    let winner = game.nominal_winner.unwrap_or(drawn);
    if winner != drawn {
        // A winner stored before: the record shows it (and then does not replay).
        rec.outcome = vec![number(winner)];
    }
    (winner, rec)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::GameResult;

    fn same(id: PlayerId) -> u32 {
        id
    }

    #[test]
    fn nominal_winner_is_one_of_the_two_and_replays() {
        let g = PlayedGame::new(3, 20, 10, GameResult::DoubleLoss);
        let (w1, r1) = nominal_winner(42, &g, &same);
        let (w2, r2) = nominal_winner(42, &g, &same);
        assert!(w1 == 10 || w1 == 20);
        assert_eq!((w1, &r1), (w2, &r2));
        assert_eq!(r1.candidates, vec![10, 20], "by pairing number, not by colour");
        assert_eq!(r1.purpose, Purpose::DoubleLoss { round: 3 });
        assert_eq!(r1.replays(), Some(true));
        // Pairing numbers, not ids, are recorded.
        let (w3, r3) = nominal_winner(42, &g, &|id| id + 100);
        assert_eq!((w3, r3.candidates, r3.outcome), (w1, vec![110, 120], vec![w1 + 100]));
    }

    #[test]
    fn both_sides_win_some_lots() {
        let mut wins = [0; 2];
        for seed in 0..200 {
            let g = PlayedGame::new(1, 1, 2, GameResult::DoubleLoss);
            let (w, _) = nominal_winner(seed, &g, &same);
            wins[(w - 1) as usize] += 1;
        }
        assert!(wins[0] > 60 && wins[1] > 60, "{wins:?}");
    }

    #[test]
    fn stored_winner_is_kept() {
        let mut g = PlayedGame::new(1, 1, 2, GameResult::DoubleLoss);
        g.nominal_winner = Some(2);
        for seed in 0..20 {
            assert_eq!(nominal_winner(seed, &g, &same).0, 2);
        }
    }
}
