//! Relay matches played through every rule of seed 003 the relay engine implements: line-ups and
//! their refusals, substitutions and timeouts with their counts, order errors, quota excess,
//! cards, Art. 24.4, byo-yomi timeouts, the count with penalty stones, and the 节棋 play-off.

use rules::board::Color::{self, Black, White};
use rules::clock::ClockReading;
use rules::rulings::{GameResult, LossReason, ResultMethod, Said, SecondYellowCost};

use super::cards::CardOffence;
use super::ending::Ending;
use super::lineup::Section;
use super::relay::{
    Accepted, Card, Effect, Event, KnockoutDraw, Phase, PlayoffClock, Refusal, RelayConfig, RelayMatch,
    RequestKind, Stage, SubstitutionKind, VoidOffence,
};
use super::roster::fixtures::team;
use super::roster::{ExecutingLeader, LeaderBasis};
use super::sheets::{lineup_forms, record_sheet};
use super::standings::{knockout_outcome, TeamMatchRecord, TeamOutcome};
use super::withdraw::{replay_standing, withdraw, LoggedEvent, WithdrawError};
use super::{PersonId, Timestamp};
use rules::ruleset::CycleOutcome;

use crate::pairing::knockout::MatchOutcome;

/// The match starts here; section 1's line-ups are due 300 s earlier.
const T0: Timestamp = 1_700_000_000;

/// A match under test with a running clock (one second per event).
#[derive(Clone)]
struct H {
    m: RelayMatch,
    t: Timestamp,
}

impl H {
    /// Black: team 1 (leader 100, coach 101, players 111–120, captain 111);
    /// White: team 2 (leader 200, coach 201, players 211–220, captain 211).
    fn new(stage: Stage) -> H {
        H::with(RelayConfig { stage, ..RelayConfig::default() }, &[], &[])
    }

    fn with(config: RelayConfig, barred_black: &[PersonId], barred_white: &[PersonId]) -> H {
        let m = RelayMatch::new(config, team(1, 100, 10), team(2, 200, 10), T0, barred_black, barred_white)
            .expect("valid match");
        H { m, t: T0 - 900 }
    }

    fn at(&mut self, t: Timestamp) -> &mut H {
        self.t = t;
        self
    }

    fn ok(&mut self, e: Event) -> Accepted {
        self.t += 1;
        match self.m.apply(self.t, e.clone()) {
            Ok(a) => a,
            Err(r) => panic!("{e:?} refused at move {}: {r:?}", self.m.moves()),
        }
    }

    /// The event is refused and the match is exactly as before.
    fn no(&mut self, e: Event) -> Refusal {
        self.t += 1;
        let before = self.m.clone();
        let r = match self.m.apply(self.t, e.clone()) {
            Ok(a) => panic!("{e:?} accepted at move {}: {:?}", self.m.moves(), a.effects),
            Err(r) => r,
        };
        assert_eq!(self.m, before, "a refusal leaves the match unchanged");
        r
    }

    fn lineup(&mut self, side: Color, section: Section, players: [PersonId; 2]) -> Accepted {
        self.ok(Event::SubmitLineup { side, section, players })
    }

    fn mv(&mut self, player: PersonId) -> Accepted {
        self.ok(Event::Move { player, at: None })
    }

    /// The player due next, or the first seated player of the side to move when it may choose.
    fn next_player(&self) -> PersonId {
        self.m.expected_player().unwrap_or_else(|| {
            let seats = self.m.side(self.m.side_to_move()).seats.expect("in play");
            seats.into_iter().flatten().next().expect("someone seated")
        })
    }

    /// Plays in the clockwise order until `moves` moves have been played.
    fn play_to(&mut self, moves: u32) {
        while self.m.moves() < moves {
            let p = self.next_player();
            self.mv(p);
        }
    }

    fn claim(&mut self, claimant: Color) -> Accepted {
        self.ok(Event::ClaimOrderError { claimant })
    }

    fn card(&mut self, person: PersonId, card: Card) -> Accepted {
        self.ok(Event::Card { person, card, offence: None })
    }

    fn stones(&self) -> [u32; 2] {
        self.m.counts().penalty_stones
    }
}

fn has(a: &Accepted, f: impl Fn(&Effect) -> bool) -> bool {
    a.effects.iter().any(f)
}

/// What the rulings of an accepted event said (typed; `i18n::relay` words them).
fn rulings_said(a: &Accepted) -> Vec<&Said> {
    a.effects
        .iter()
        .filter_map(|e| match e {
            Effect::Ruling { said } => Some(said),
            _ => None,
        })
        .collect()
}

/// Whether one of the rulings said `f`.
fn ruled(a: &Accepted, f: impl Fn(&Said) -> bool) -> bool {
    rulings_said(a).into_iter().any(f)
}

fn clocks(main: u32) -> Option<[ClockReading; 2]> {
    let r = ClockReading { main_secs: main, periods: 3, period_secs: 0, period_moves: 0, overtime: false };
    Some([r, ClockReading { main_secs: main + 60, ..r }])
}

/// The whole match, section by section. Black has players 111–120, White 211–220.
#[test]
fn full_relay_match_through_every_rule() {
    let mut h = H::new(Stage::RoundRobin);

    // ---- Line-ups for section 1 (Art. 10.1), due 5 minutes before the start -----------------
    let a = h.lineup(Black, Section::One, [111, 112]);
    assert!(has(&a, |e| matches!(e, Effect::LineupAccepted { replaced: false, .. })));
    let a = h.lineup(White, Section::One, [211, 212]);
    assert!(has(&a, |e| *e == Effect::Seated { section: Section::One, order: [111, 211, 112, 212] }));
    // Section 2's line-ups can come early; a player in two sections is refused (Art. 10.4).
    assert_eq!(
        h.no(Event::SubmitLineup { side: Black, section: Section::Two, players: [113, 111] }),
        Refusal::PlaysAnotherSection { person: 111, section: Section::One }
    );
    h.lineup(Black, Section::Two, [113, 114]);
    h.lineup(White, Section::Two, [213, 214]);
    // White wants to change its section-1 line-up 200 s before the start: too late.
    assert_eq!(
        h.at(T0 - 200).no(Event::SubmitLineup { side: White, section: Section::One, players: [211, 213] }),
        Refusal::LineupLate { section: Section::One, deadline: T0 - 300, at: T0 - 199 }
    );

    // ---- Section 1: clockwise order, order errors, substitution, cards ---------------------
    h.at(T0);
    assert_eq!(h.no(Event::Move { player: 211, at: None }), Refusal::NotYourTurn { to_move: Black });
    assert_eq!(h.no(Event::Move { player: 113, at: None }), Refusal::NotOnBoard { person: 113 });
    h.mv(111);
    h.mv(211);
    // Move 3 is 112's; 111 plays it: out of order, the move stands, White may claim.
    let a = h.mv(111);
    assert!(has(&a, |e| matches!(
        e,
        Effect::OrderErrorClaimable { number: 3, side: Black, player: 111, claimant: White }
    )));
    assert_eq!(
        h.no(Event::ClaimOrderError { claimant: Black }),
        Refusal::NoOrderErrorToClaim { claimant: Black }
    );
    let a = h.claim(White);
    assert_eq!(a.counts.penalty_stones, [1, 0], "1st order error: 1 stone (Art. 17.7)");
    assert_eq!(a.counts.order_errors, [1, 0]);
    // White chooses its next mover: 212 is fine (no error).
    assert_eq!(h.m.expected_player(), None);
    let a = h.mv(212);
    assert!(!has(&a, |e| matches!(e, Effect::OrderErrorClaimable { .. })));
    h.mv(111); // after 212 comes 111 again, clockwise
               // 211 is due, 212 moves: White's error, and Black does not claim it.
    assert_eq!(h.m.expected_player(), Some(211));
    let a = h.mv(212);
    assert!(has(&a, |e| matches!(e, Effect::OrderErrorClaimable { number: 6, side: White, .. })));
    let a = h.mv(112);
    assert!(has(&a, |e| *e == Effect::OrderErrorLapsed { number: 6, side: White }), "Art. 17.7: lapses");
    assert_eq!(
        h.no(Event::ClaimOrderError { claimant: Black }),
        Refusal::NoOrderErrorToClaim { claimant: Black }
    );
    assert_eq!(h.stones(), [1, 0]);
    h.play_to(10);

    // A timeout requested and cancelled uses nothing (Art. 10.5).
    let a = h.ok(Event::RequestTimeout { side: Black });
    assert!(has(&a, |e| matches!(e, Effect::RequestMade { side: Black, request: RequestKind::Timeout, .. })));
    assert_eq!(h.no(Event::Move { player: 211, at: None }), Refusal::RequestPending { side: Black });
    h.ok(Event::CancelRequest { side: Black });
    assert_eq!(h.m.counts().timeouts_left, [2, 2]);

    // Substitution #1 for Black: 112 out, 117 in; the referee reports the move order.
    let a = h.ok(Event::RequestSubstitution { out: 112, incoming: 117 });
    let Some(Effect::RequestMade { order, .. }) = a.effects.first() else { panic!("{:?}", a.effects) };
    assert_eq!((order.next_move, order.side, order.player), (11, Black, Some(112)));
    let a = h.ok(Event::ConfirmRequest { side: Black });
    assert!(has(&a, |e| matches!(
        e,
        Effect::SubstitutionMade { out: 112, incoming: 117, kind: SubstitutionKind::Regular, left: 2, .. }
    )));
    h.t += 30;
    let a = h.ok(Event::SubstituteSeated { side: Black });
    assert!(has(&a, |e| matches!(e, Effect::SeatedInTime { secs: 31, .. })));
    // 112 cannot come back (Art. 10.4).
    assert_eq!(
        h.no(Event::RequestSubstitution { out: 117, incoming: 112 }),
        Refusal::ReturningPlayer { person: 112 }
    );
    // 117 came on as a substitute in section 1: not in section 2 (Art. 10.4).
    assert_eq!(
        h.no(Event::SubmitLineup { side: Black, section: Section::Two, players: [113, 117] }),
        Refusal::HasPlayed { person: 117, section: Section::One }
    );
    h.play_to(20);

    // Yellow card to White 212: 1 stone; a second yellow: red (default reading 1 + 2).
    let a = h.card(212, Card::Yellow);
    assert_eq!(a.counts.penalty_stones, [1, 1], "yellow card: 1 stone (Art. 24.3)");
    h.play_to(30);
    let a = h.card(212, Card::Yellow);
    assert_eq!(a.counts.penalty_stones, [1, 3], "second yellow → red: 1 + 2 (SecondYellow default)");
    let red = |s: &Said| matches!(s, Said::SecondYellow { nth: 2, cost: SecondYellowCost::Red, .. });
    assert!(ruled(&a, red), "{:?}", rulings_said(&a));
    // On the board with players available: counts as White's substitution, seat vacant.
    assert!(has(&a, |e| *e == Effect::RedCountsAsSubstitution { side: White, left: 2 }));
    assert!(has(&a, |e| *e == Effect::SeatVacant { side: White, person: 212 }));
    assert_eq!(h.no(Event::Move { player: 111, at: None }), Refusal::SeatVacant { side: White });
    assert_eq!(
        h.no(Event::Card { person: 212, card: Card::Yellow, offence: None }),
        Refusal::AlreadySentOff { person: 212 }
    );
    assert_eq!(
        h.no(Event::ReplaceSentOff { side: White, incoming: 213 }),
        Refusal::PlaysAnotherSection { person: 213, section: Section::Two }
    );
    let a = h.ok(Event::ReplaceSentOff { side: White, incoming: 217 });
    assert!(has(&a, |e| matches!(
        e,
        Effect::SubstitutionMade { kind: SubstitutionKind::RedCardReplacement, .. }
    )));
    assert_eq!(h.m.counts().substitutions_left, [2, 2]);

    // ---- Section end and quota (Arts. 10.2, 17.8) -----------------------------------------
    h.play_to(71);
    assert_eq!(
        h.no(Event::SectionEnd { clocks: None }),
        Refusal::SectionNotComplete { section: Section::One, moves: 71, last: 72 }
    );
    h.play_to(72);
    // Black plays move 73 before the section is ended: 1 stone for the move beyond the quota.
    let p = h.next_player();
    let a = h.mv(p);
    assert!(ruled(&a, |s| matches!(s, Said::QuotaExcess { extra: 1, .. })), "{:?}", rulings_said(&a));
    assert_eq!(a.counts.penalty_stones, [2, 3]);
    let a = h.ok(Event::SectionEnd { clocks: None });
    let end1 = h.t;
    assert!(has(&a, |e| *e == Effect::SectionEnded { section: Section::One, moves: 73, next_deadline: end1 }));
    // Section 2 starts at move 74: White first (X1 = White's first-listed), crosswise.
    assert!(has(&a, |e| *e == Effect::Seated { section: Section::Two, order: [213, 113, 214, 114] }));

    // ---- Section 2: substitutions to 3, red as a substitution, timeouts, byo-yomi ----------
    h.play_to(80);
    h.ok(Event::RequestSubstitution { out: 114, incoming: 118 });
    h.ok(Event::ConfirmRequest { side: Black });
    h.t += 75;
    let a = h.ok(Event::SubstituteSeated { side: Black });
    assert!(has(&a, |e| *e == Effect::SeatingDelay { side: Black, secs: 76, limit: 60 }), "Art. 10.5 (3)");
    // Section 3's line-ups, during section 2 (on time); a red-carded player is refused.
    assert_eq!(
        h.no(Event::SubmitLineup { side: White, section: Section::Three, players: [215, 212] }),
        Refusal::Barred { person: 212 }
    );
    h.lineup(White, Section::Three, [215, 216]);
    h.lineup(Black, Section::Three, [115, 116]);
    h.play_to(90);
    h.card(113, Card::Yellow);
    assert_eq!(h.stones(), [3, 3]);
    h.play_to(95);
    let a = h.card(113, Card::Yellow);
    assert_eq!(a.counts.penalty_stones, [5, 3], "second yellow → red: +2");
    // The red counts as Black's 3rd substitution (Art. 24.3).
    assert!(has(&a, |e| *e == Effect::RedCountsAsSubstitution { side: Black, left: 0 }));
    h.ok(Event::ReplaceSentOff { side: Black, incoming: 119 });
    assert_eq!(
        h.no(Event::RequestSubstitution { out: 119, incoming: 120 }),
        Refusal::NoSubstitutionsLeft { side: Black, limit: 3 }
    );
    // White's timeouts: 2, the 3rd refused.
    for left in [1, 0] {
        h.ok(Event::RequestTimeout { side: White });
        let a = h.ok(Event::ConfirmRequest { side: White });
        assert!(has(&a, |e| *e == Effect::TimeoutTaken { side: White, left }));
    }
    assert_eq!(
        h.no(Event::RequestTimeout { side: White }),
        Refusal::NoTimeoutsLeft { side: White, limit: 2 }
    );
    // Last byo-yomi period exceeded by White: a pass and 1 stone (Art. 22.1).
    h.play_to(99); // White to move at 100
    let due = h.m.expected_player().unwrap();
    let other = if due == 213 { 214 } else { 213 };
    assert_eq!(
        h.no(Event::ByoYomiTimeout { player: other }),
        Refusal::NotThisPlayersTurn { person: other, expected: due }
    );
    let a = h.ok(Event::ByoYomiTimeout { player: due });
    assert!(has(&a, |e| *e == Effect::ForcedPass { number: 100, side: White, player: due }));
    assert_eq!(a.counts.penalty_stones, [5, 4]);
    assert_eq!((a.counts.moves, a.counts.to_move), (100, Black));
    assert!(h.m.move_log().last().unwrap().pass);
    h.play_to(143);
    h.ok(Event::SectionEnd { clocks: clocks(600) });

    // ---- Section 3 (move 144 on, White first): Art. 24.4 and the player's 3rd order error --
    assert_eq!(h.m.side_to_move(), White);
    assert_eq!(h.m.expected_player(), Some(215));
    // The executing leader (Art. 10.1) with leader, coach and captain away: section 3's
    // players are at the board, so section 2's by position number: 113 is barred, then 114.
    let lead = h.m.executing_leader(Black, &|p| ![100, 101, 111].contains(&p)).unwrap();
    assert_eq!((lead.person, lead.basis), (114, LeaderBasis::SectionPlayer(Section::Two)));
    let lead = h.m.executing_leader(Black, &|p| p != 100).unwrap();
    assert_eq!(lead.basis, LeaderBasis::Coach);
    h.mv(215); // 144
    assert_eq!(
        h.no(Event::RequestSubstitution { out: 215, incoming: 211 }),
        Refusal::ReturningPlayer { person: 211 }
    );
    h.play_to(148); // 145 B115, 146 W216, 147 B116, 148 W215
                    // Red card to Black 115: Black's substitutions are used up → White gains one "any"
                    // substitution; Black still has 120, who comes on.
    let a = h.card(115, Card::Red);
    assert_eq!(a.counts.penalty_stones, [7, 4], "red: 2 stones");
    assert!(has(&a, |e| *e == Effect::AnySubstitutionGained { side: White }));
    assert_eq!(a.counts.any_substitutions, [0, 1]);
    h.ok(Event::ReplaceSentOff { side: Black, incoming: 120 });
    // White uses it to bring back 211, who played section 1 (Art. 24.4 "可换上已出场队员").
    h.ok(Event::RequestSubstitution { out: 215, incoming: 211 });
    let a = h.ok(Event::ConfirmRequest { side: White });
    assert!(has(&a, |e| matches!(
        e,
        Effect::SubstitutionMade { incoming: 211, kind: SubstitutionKind::Any, .. }
    )));
    assert_eq!(a.counts.any_substitutions, [0, 0]);
    assert_eq!(a.counts.substitutions_left, [0, 2], "the extra one does not touch the regular count");
    h.play_to(152); // 149 B120, 150 W216, 151 B116, 152 W211
                    // 153 is 120's; 116 plays it: Black's 2nd order error, 2 stones.
    assert_eq!(h.m.expected_player(), Some(120));
    h.mv(116);
    assert_eq!(h.claim(White).counts.penalty_stones, [9, 4]);
    h.mv(216); // 154, White's free choice; then 116 is due and plays in order
    h.mv(116); // 155
    h.mv(211); // 156
    h.mv(116); // 157: 120 was due: 3rd error, 3 stones
    assert_eq!(h.claim(White).counts.penalty_stones, [12, 4]);
    h.mv(211); // 158, free choice
    h.mv(116); // 159: 120 due: 4th error (116's 3rd) → 4 stones + red 2
    let a = h.claim(White);
    assert_eq!(a.counts.penalty_stones, [18, 4]);
    assert_eq!(a.counts.order_errors, [4, 0]);
    let said = rulings_said(&a);
    assert!(said.iter().any(|s| matches!(s, Said::OrderError { side: Black, nth: 4, .. })), "{said:?}");
    assert!(said.iter().any(|s| matches!(s, Said::OrderErrorRed { .. })), "{said:?}");
    // Nobody left who may come on: 116 stays on and Black owes a forced pass (Art. 24.4).
    assert!(has(&a, |e| *e == Effect::StaysOn { side: Black, person: 116 }));
    assert_eq!(a.counts.owed_passes, [1, 0]);
    let a = h.mv(216); // 160; Black's turn is passed at once: move 161
    assert!(has(&a, |e| matches!(e, Effect::ForcedPass { number: 161, side: Black, .. })));
    assert_eq!((a.counts.owed_passes, a.counts.to_move), ([0, 0], White));
    h.play_to(170);

    // ---- Count: 196 for Black; penalties 18 against Black, 4 against White --------------
    // B_eff = 196 − 18 + 4 = 182 → White wins by 2 (komi 3½: 184 is the draw).
    let a = h.ok(Event::Count { black_halves: 392, clocks: clocks(30) });
    let Some(Effect::GameOver { result, said }) = a.effects.first() else { panic!("{:?}", a.effects) };
    assert_eq!(result.code(), "W+2");
    assert!(matches!(said, Said::Counted { black_halves: 392, penalties: Some([18, 4]), .. }), "{said:?}");
    assert!(has(&a, |e| *e
        == Effect::MatchDecided { outcome: TeamOutcome::SecondWins, points: [0, 3], playoff: false }));
    assert_eq!(h.m.phase(), Phase::Over);
    assert_eq!(h.no(Event::Move { player: 116, at: None }), Refusal::MatchOver);
    let rec = TeamMatchRecord::from_relay(1, &h.m).unwrap();
    assert_eq!((rec.teams, rec.outcome, rec.match_points), ([1, 2], TeamOutcome::SecondWins, [0, 3]));

    // Red cards bar the next game too (Art. 24.3).
    assert_eq!(h.m.barred_next_game(Black), vec![113, 115, 116]);
    assert_eq!(h.m.barred_next_game(White), vec![212]);

    // The sheets: line-up forms and the record with the penalty log.
    let forms = lineup_forms(&h.m);
    assert_eq!(forms.len(), 6);
    let f = &forms[0];
    assert_eq!(
        (f.rows[0].name.as_str(), f.rows[0].position, f.rows[0].presses_clock),
        ("P1-1", Some(1), true)
    );
    assert_eq!(f.deadline, Some(T0 - 300));
    let sheet = record_sheet(&h.m);
    assert_eq!(sheet.penalty_totals, [18, 4]);
    assert_eq!(sheet.penalties.last().unwrap().row.total, [18, 4]);
    let stones: Vec<u32> = sheet.penalties.iter().map(|r| r.row.stones).collect();
    // Order error 1; yellow 1; red (2nd yellow) 2; quota 1; yellow 1; red 2; timeout 1;
    // red 2; order errors 2, 3, 4 + red 2; the forced pass 0.
    assert_eq!(stones, vec![1, 1, 2, 1, 1, 2, 1, 2, 2, 3, 6, 0]);
    assert_eq!(sheet.substitutions.len(), 6, "3 + 2 red-card replacements + the extra one");
    assert_eq!(sheet.timeouts.len(), 2);
    assert_eq!(sheet.sections[0].players[1], vec!["P2-1", "P2-2", "P2-7"]);
    assert_eq!(sheet.result.map(|r| r.code()).as_deref(), Some("W+2"));

    // The stored events rebuild the same match; they survive JSON.
    let json = serde_json::to_string(h.m.events()).unwrap();
    let events: Vec<(Timestamp, Event)> = serde_json::from_str(&json).unwrap();
    let fresh =
        RelayMatch::new(RelayConfig::default(), team(1, 100, 10), team(2, 200, 10), T0, &[], &[]).unwrap();
    assert_eq!(fresh.replay(&events).unwrap(), h.m);
}

/// A side's 5th order error in a game loses it (Art. 17.7), before anyone's 3rd matters.
#[test]
fn fifth_order_error_loses_the_game() {
    let mut h = H::new(Stage::RoundRobin);
    h.lineup(Black, Section::One, [111, 112]);
    h.lineup(White, Section::One, [211, 212]);
    h.at(T0);
    h.mv(111);
    h.mv(211);
    // White's free choice after each claim steers which Black player is due.
    let plan = [(111, 212), (112, 211), (111, 212), (112, 211)];
    for (k, (black, white)) in plan.into_iter().enumerate() {
        h.mv(black);
        let a = h.claim(White);
        let n = k as u32 + 1;
        assert_eq!(a.counts.penalty_stones[0], n * (n + 1) / 2, "1 + 2 + … + {n}");
        h.mv(white);
    }
    assert_eq!(h.stones(), [10, 0]);
    assert_eq!(h.m.expected_player(), Some(112));
    h.mv(111);
    let a = h.claim(White);
    assert!(ruled(&a, |s| matches!(s, Said::OrderErrorLoss { nth: 5, .. })), "{:?}", rulings_said(&a));
    assert_eq!(h.m.result(), Some(GameResult::loss_of(Black, LossReason::OrderErrors)));
    assert!(has(&a, |e| *e
        == Effect::MatchDecided { outcome: TeamOutcome::SecondWins, points: [0, 3], playoff: false }));
    assert_eq!(h.no(Event::Move { player: 212, at: None }), Refusal::MatchOver);
}

/// Plays a knockout game with one Black yellow (section 2) to a count of 185: a draw at komi
/// 3½. Returns the match waiting for the 节棋 play-off.
fn drawn_knockout() -> H {
    let mut h = H::new(Stage::Knockout);
    h.lineup(Black, Section::One, [111, 112]);
    h.lineup(White, Section::One, [211, 212]);
    h.lineup(Black, Section::Two, [113, 114]);
    h.lineup(White, Section::Two, [213, 214]);
    h.at(T0);
    h.play_to(72);
    h.ok(Event::SectionEnd { clocks: None });
    h.lineup(Black, Section::Three, [115, 116]);
    h.lineup(White, Section::Three, [215, 216]);
    h.play_to(100);
    h.card(113, Card::Yellow);
    h.play_to(143);
    h.ok(Event::SectionEnd { clocks: clocks(900) });
    assert_eq!(h.no(Event::SectionEnd { clocks: None }), Refusal::NoSectionToEnd);
    h.play_to(200);
    let a = h.ok(Event::Count { black_halves: 370, clocks: clocks(120) });
    let Some(Effect::GameOver { result, said }) = a.effects.first() else { panic!("{:?}", a.effects) };
    assert_eq!(result.winner, None, "185 − 1 = 184 at komi 3½: a draw (rules.md §3.3, §3.5)");
    assert!(matches!(said, Said::Counted { black_halves: 370, penalties: Some([1, 0]), .. }), "{said:?}");
    assert!(has(&a, |e| *e == Effect::PlayoffRequired));
    assert_eq!(h.m.phase(), Phase::PlayoffPending);
    h
}

/// Art. 12: knockout draw → 节棋 from move 144 with any two players, one substitution and
/// one timeout each → a second draw is Black's win.
#[test]
fn knockout_draw_goes_to_playoff_and_second_draw_is_blacks() {
    let mut h = drawn_knockout();
    assert_eq!(h.no(Event::Move { player: 215, at: None }), Refusal::PlayoffPending);
    assert_eq!(
        h.no(Event::SubmitLineup { side: Black, section: Section::Playoff, players: [111, 113] }),
        Refusal::PlayoffPending
    );
    let a = h.ok(Event::RestoreForPlayoff);
    let restored_at = h.t;
    assert!(has(&a, |e| *e
        == Effect::PlayoffStarted {
            restored_to: 143,
            lineup_deadline: restored_at + 180,
            clocks: clocks(120).unwrap(),
            clocks_after: 200,
        }));
    assert_eq!(h.m.playoff_clocks().map(|e| e.clocks), clocks(120), "the time left at the count");
    assert_eq!((h.m.moves(), h.m.side_to_move(), h.m.section()), (143, White, Section::Playoff));
    assert_eq!(h.m.counts().substitutions_left, [1, 1]);
    assert_eq!(h.m.counts().timeouts_left, [1, 1]);
    assert_eq!(h.m.counts().penalty_stones, [1, 0], "the section-2 yellow stays with the restored game");
    // Any two players of the list, including those who played sections 1–3.
    h.lineup(Black, Section::Playoff, [111, 113]);
    let a = h.lineup(White, Section::Playoff, [216, 211]);
    assert!(has(&a, |e| *e == Effect::Seated { section: Section::Playoff, order: [216, 111, 211, 113] }));
    assert_eq!(
        h.at(restored_at + 181).no(Event::SubmitLineup {
            side: White,
            section: Section::Playoff,
            players: [216, 212]
        }),
        Refusal::LineupLate { section: Section::Playoff, deadline: restored_at + 180, at: restored_at + 182 }
    );
    h.play_to(150);
    // One substitution each (a section-3 player may come on), the second refused.
    h.ok(Event::RequestSubstitution { out: 113, incoming: 115 });
    h.ok(Event::ConfirmRequest { side: Black });
    assert_eq!(
        h.no(Event::RequestSubstitution { out: 115, incoming: 116 }),
        Refusal::NoSubstitutionsLeft { side: Black, limit: 1 }
    );
    // One timeout each.
    h.ok(Event::RequestTimeout { side: White });
    h.ok(Event::ConfirmRequest { side: White });
    assert_eq!(
        h.no(Event::RequestTimeout { side: White }),
        Refusal::NoTimeoutsLeft { side: White, limit: 1 }
    );
    h.play_to(210);
    // 185 again with the Black yellow: 184 effective, equal → Black wins (JigoRule::BlackWins).
    let a = h.ok(Event::Count { black_halves: 370, clocks: None });
    let Some(Effect::GameOver { result, .. }) = a.effects.first() else { panic!("{:?}", a.effects) };
    assert_eq!(result.winner, Some(Black));
    assert!(matches!(result.method, ResultMethod::Count { outcome, .. } if outcome.margin_q == 0));
    assert_eq!(result.code(), "B+");
    assert!(has(&a, |e| *e
        == Effect::MatchDecided { outcome: TeamOutcome::FirstWins, points: [3, 0], playoff: true }));
    assert!(h.m.went_to_playoff());
    assert_eq!(h.m.first_result().map(|r| r.winner), Some(None));
    let rec = TeamMatchRecord::from_relay(1, &h.m).unwrap();
    assert_eq!(knockout_outcome(&rec, 1), MatchOutcome::AWins);
    let sheet = record_sheet(&h.m);
    let code = |r: Option<rules::rulings::GameResult>| r.map(|r| r.code());
    assert_eq!(code(sheet.drawn_game).as_deref(), Some("Draw"));
    assert_eq!(code(sheet.result).as_deref(), Some("B+"));
    assert_eq!(lineup_forms(&h.m).len(), 8, "sections 1–3 and the play-off, both sides");
}

/// The restore keeps sections 1–2 and sets section 3's rulings aside; a section-3 yellow
/// still counts toward a red (same 场次) and a section-3 red stays barred.
#[test]
fn playoff_restores_the_end_of_section_two() {
    let mut h = H::new(Stage::Knockout);
    h.lineup(Black, Section::One, [111, 112]);
    h.lineup(White, Section::One, [211, 212]);
    h.lineup(Black, Section::Two, [113, 114]);
    h.lineup(White, Section::Two, [213, 214]);
    h.at(T0);
    h.play_to(72);
    h.ok(Event::SectionEnd { clocks: None });
    h.lineup(Black, Section::Three, [115, 116]);
    h.lineup(White, Section::Three, [215, 216]);
    h.card(214, Card::Yellow); // section 2 (before move 73): kept
    h.play_to(143);
    h.ok(Event::SectionEnd { clocks: clocks(500) });
    h.play_to(150);
    h.card(215, Card::Yellow); // section 3: set aside, but counts toward a red
    h.card(116, Card::Red); // section 3: 2 stones set aside, 116 stays barred
    h.ok(Event::ReplaceSentOff { side: Black, incoming: 117 });
    h.play_to(180);
    assert_eq!(h.stones(), [2, 2]);
    // Black 184 with 2 stones each way: a draw.
    h.ok(Event::Count { black_halves: 368, clocks: clocks(60) });
    assert_eq!(h.m.phase(), Phase::PlayoffPending);
    h.ok(Event::RestoreForPlayoff);
    assert_eq!(h.m.counts().penalty_stones, [0, 1], "only the section-2 yellow remains");
    assert_eq!(h.m.set_aside().len(), 2);
    assert_eq!(h.m.move_log().len(), 143);
    assert_eq!(
        h.no(Event::SubmitLineup { side: Black, section: Section::Playoff, players: [116, 111] }),
        Refusal::Barred { person: 116 }
    );
    h.lineup(Black, Section::Playoff, [117, 111]);
    h.lineup(White, Section::Playoff, [215, 211]);
    h.play_to(150);
    let a = h.card(215, Card::Yellow);
    assert!(ruled(&a, |s| matches!(s, Said::SecondYellow { nth: 2, .. })), "{:?}", rulings_said(&a));
    assert_eq!(a.counts.penalty_stones, [0, 3], "prior yellow + this one = red: 2 stones");
    let sheet = record_sheet(&h.m);
    assert_eq!(sheet.penalties.len(), 3, "the original game: sections 1–3");
    assert_eq!(sheet.playoff_penalties.len(), 1);
    assert_eq!(sheet.playoff_penalties[0].row.total, [0, 3]);
}

/// Art. 12 注: an event may rule an equal count a White win; in a round robin a draw stands.
#[test]
fn equal_count_draw_or_white_win() {
    let play = |h: &mut H| {
        h.lineup(Black, Section::One, [111, 112]);
        h.lineup(White, Section::One, [211, 212]);
        h.at(T0);
        h.play_to(60);
        h.ok(Event::Count { black_halves: 368, clocks: None })
    };
    let mut h = H::new(Stage::RoundRobin);
    let a = play(&mut h);
    assert!(has(&a, |e| *e
        == Effect::MatchDecided { outcome: TeamOutcome::Draw, points: [1, 1], playoff: false }));
    let mut config = RelayConfig::default();
    config.rules.jigo = rules::outcome::JigoRule::WhiteWins;
    let mut h = H::with(config, &[], &[]);
    let a = play(&mut h);
    assert!(has(&a, |e| *e
        == Effect::MatchDecided { outcome: TeamOutcome::SecondWins, points: [0, 3], playoff: false }));
}

/// Resignation by the executing leader (Art. 14): penalty stones do not change it.
#[test]
fn resignation_ignores_penalty_stones() {
    let mut h = H::new(Stage::Knockout);
    h.lineup(Black, Section::One, [111, 112]);
    h.lineup(White, Section::One, [211, 212]);
    h.at(T0);
    h.play_to(30);
    h.card(111, Card::Red);
    h.ok(Event::ReplaceSentOff { side: Black, incoming: 113 });
    let a = h.ok(Event::Resign { side: White, by: Some(200) });
    assert!(has(&a, |e| *e
        == Effect::MatchDecided { outcome: TeamOutcome::FirstWins, points: [3, 0], playoff: false }));
    assert_eq!(h.m.result().unwrap().code(), "B+R");
}

/// Line-up rules in detail: replacement before the deadline, staff, strangers, duplicates,
/// closed sections, missing line-ups.
#[test]
fn lineup_refusals() {
    let mut h = H::new(Stage::RoundRobin);
    assert_eq!(
        h.no(Event::SubmitLineup { side: Black, section: Section::One, players: [100, 111] }),
        Refusal::NotAPlayer { person: 100 }
    );
    assert!(matches!(
        h.no(Event::SubmitLineup { side: Black, section: Section::One, players: [211, 111] }),
        Refusal::NotOnTeam { person: 211, .. }
    ));
    assert_eq!(
        h.no(Event::SubmitLineup { side: Black, section: Section::One, players: [111, 111] }),
        Refusal::SamePlayerTwice { person: 111 }
    );
    h.lineup(Black, Section::One, [111, 112]);
    let a = h.lineup(Black, Section::One, [112, 111]);
    assert!(has(&a, |e| matches!(e, Effect::LineupAccepted { replaced: true, .. })));
    assert_eq!(
        h.no(Event::Move { player: 112, at: None }),
        Refusal::LineupMissing { side: White, section: Section::One }
    );
    h.lineup(White, Section::One, [211, 212]);
    h.at(T0);
    h.mv(112);
    assert_eq!(
        h.no(Event::SubmitLineup { side: Black, section: Section::One, players: [113, 114] }),
        Refusal::SectionClosed { section: Section::One }
    );
    assert_eq!(
        h.no(Event::SubmitLineup { side: Black, section: Section::Playoff, players: [113, 114] }),
        Refusal::SectionClosed { section: Section::Playoff }
    );
    assert_eq!(
        h.no(Event::SectionEnd { clocks: None }),
        Refusal::SectionNotComplete { section: Section::One, moves: 1, last: 72 }
    );
    assert_eq!(h.no(Event::RestoreForPlayoff), Refusal::NoPlayoffPending);
    assert_eq!(
        h.no(Event::Card { person: 999, card: Card::Yellow, offence: None }),
        Refusal::UnknownPerson { person: 999 }
    );
    assert_eq!(
        h.no(Event::ReplaceSentOff { side: Black, incoming: 113 }),
        Refusal::NoVacancy { side: Black }
    );
    assert_eq!(h.no(Event::ConfirmRequest { side: Black }), Refusal::NoRequestPending { side: Black });
    assert_eq!(h.no(Event::SubstituteSeated { side: Black }), Refusal::NoSubstitutionToSeat { side: Black });
    assert_eq!(
        h.no(Event::RequestSubstitution { out: 112, incoming: 100 }),
        Refusal::NotAPlayer { person: 100 }
    );
    assert_eq!(
        h.no(Event::RequestSubstitution { out: 112, incoming: 111 }),
        Refusal::AlreadyOnBoard { person: 111 }
    );
}

/// A red card to a player lined up for a section not yet started reopens that line-up, also
/// past its deadline; persons barred by the previous game's red cards are refused.
#[test]
fn red_cards_off_the_board_and_from_the_previous_game() {
    let mut h = H::with(RelayConfig::default(), &[118], &[]);
    assert_eq!(
        h.no(Event::SubmitLineup { side: Black, section: Section::One, players: [118, 111] }),
        Refusal::Barred { person: 118 }
    );
    assert_eq!(
        h.no(Event::Card { person: 118, card: Card::Yellow, offence: None }),
        Refusal::Barred { person: 118 }
    );
    h.lineup(Black, Section::One, [111, 112]);
    h.lineup(White, Section::One, [211, 212]);
    h.lineup(Black, Section::Two, [113, 114]);
    h.lineup(White, Section::Two, [213, 214]);
    h.lineup(Black, Section::Three, [116, 117]);
    h.at(T0);
    h.play_to(20);
    // 117, lined up for section 3 and in the analysis room: barred, the line-up reopened,
    // no substitution used (only on-board players count, Art. 24.3).
    let a = h.card(117, Card::Red);
    assert!(has(&a, |e| *e == Effect::LineupReopened { side: Black, section: Section::Three }));
    assert!(!has(&a, |e| matches!(e, Effect::RedCountsAsSubstitution { .. })), "not on the board");
    assert_eq!(h.stones(), [2, 0]);
    h.play_to(72);
    let a = h.ok(Event::SectionEnd { clocks: None });
    assert!(has(&a, |e| *e == Effect::Seated { section: Section::Two, order: [113, 213, 114, 214] }));
    // 114 is seated but section 2 has not started: the line-up is reopened as well.
    let a = h.card(114, Card::Red);
    assert!(has(&a, |e| *e == Effect::LineupReopened { side: Black, section: Section::Two }));
    assert!(h.m.side(Black).seats.is_none());
    assert_eq!(
        h.no(Event::Move { player: 113, at: None }),
        Refusal::LineupMissing { side: Black, section: Section::Two }
    );
    h.t += 600; // past the deadline: a reopened line-up may still come in
    let a = h.lineup(Black, Section::Two, [113, 115]);
    assert!(has(&a, |e| *e == Effect::Seated { section: Section::Two, order: [113, 213, 115, 214] }));
    // White's own change past the deadline is late.
    assert!(matches!(
        h.no(Event::SubmitLineup { side: White, section: Section::Two, players: [213, 215] }),
        Refusal::LineupLate { .. }
    ));
    assert_eq!(h.m.counts().substitutions_left, [3, 3]);
    assert_eq!(h.stones(), [4, 0]);
    // A red card to the coach bars him too.
    h.card(201, Card::Red);
    assert_eq!(h.m.barred_next_game(White), vec![201]);
    assert_eq!(h.m.barred_next_game(Black), vec![117, 114]);
}

/// Refused setups.
#[test]
fn setup_refusals() {
    let c = RelayConfig::default;
    assert!(RelayMatch::new(c(), team(1, 100, 10), team(1, 200, 10), T0, &[], &[]).is_err());
    assert!(RelayMatch::new(c(), team(1, 100, 10), team(2, 100, 10), T0, &[], &[]).is_err());
    assert!(RelayMatch::new(c(), team(1, 100, 5), team(2, 200, 10), T0, &[], &[]).is_err());
    assert!(RelayMatch::new(c(), team(1, 100, 10), team(2, 200, 10), T0, &[211], &[]).is_err());
}

/// A referee's summary of normal play: in the clockwise order up to a move number, stopping
/// at the section's quota and at a side's free choice after an order error (whose claim
/// lapses with that choice if the side does not claim first).
#[test]
fn moves_in_order_up_to_a_move_number() {
    let mut h = H::new(Stage::RoundRobin);
    h.lineup(Black, Section::One, [111, 112]);
    h.lineup(White, Section::One, [211, 212]);
    h.at(T0);
    let a = h.ok(Event::MovesInOrder { through: 10 });
    assert_eq!(a.effects, vec![Effect::MovesPlayed { first: 1, last: 10 }]);
    assert_eq!(h.m.moves(), 10);
    // The same as entering each move.
    let mut one_by_one = H::new(Stage::RoundRobin);
    one_by_one.lineup(Black, Section::One, [111, 112]);
    one_by_one.lineup(White, Section::One, [211, 212]);
    one_by_one.at(T0);
    one_by_one.play_to(10);
    assert_eq!(one_by_one.m.move_log(), h.m.move_log());
    assert_eq!(h.no(Event::MovesInOrder { through: 10 }), Refusal::MovesNotAhead { moves: 10, through: 10 });
    assert_eq!(
        h.no(Event::MovesInOrder { through: 73 }),
        Refusal::BeyondQuota { section: Section::One, last: 72 }
    );
    // Move 11 is 112's; 111 plays it: White chooses its next player, so no summary.
    h.mv(111);
    h.claim(White);
    assert_eq!(h.no(Event::MovesInOrder { through: 20 }), Refusal::ChooseNextPlayer { side: White });
    h.mv(212);
    let a = h.ok(Event::MovesInOrder { through: 72 });
    assert_eq!(a.effects, vec![Effect::MovesPlayed { first: 13, last: 72 }]);
    assert_eq!(h.stones(), [1, 0]);
    // An unclaimed order error lapses inside a summary; an owed pass falls where it is due.
    h.lineup(Black, Section::Two, [113, 114]);
    h.lineup(White, Section::Two, [213, 214]);
    h.ok(Event::SectionEnd { clocks: None });
    h.mv(113); // 73
    h.mv(214); // 74: 213 was due
    assert_eq!(h.no(Event::MovesInOrder { through: 80 }), Refusal::ChooseNextPlayer { side: Black });
    let a = h.mv(114); // Black's choice, no claim: the error lapses
    assert!(has(&a, |e| *e == Effect::OrderErrorLapsed { number: 74, side: White }), "{:?}", a.effects);
    let a = h.ok(Event::MovesInOrder { through: 80 });
    assert_eq!(a.effects, vec![Effect::MovesPlayed { first: 76, last: 80 }]);
    assert_eq!(h.m.moves(), 80);
}

/// Clock readings (Art. 22.4) as events: now or copied from the written record after a
/// given move, never ahead of the game; the play-off starts from the reading at the end of
/// the drawn game (Art. 12, default), and the restore waits for it.
#[test]
fn clock_readings_and_the_playoff_time_at_game_end() {
    let mut h = H::new(Stage::Knockout);
    h.lineup(Black, Section::One, [111, 112]);
    h.lineup(White, Section::One, [211, 212]);
    h.lineup(Black, Section::Two, [113, 114]);
    h.lineup(White, Section::Two, [213, 214]);
    h.at(T0);
    h.play_to(40);
    let a = h.ok(Event::Clocks { move_number: None, clocks: clocks(2400).unwrap() });
    assert_eq!(a.effects, vec![Effect::ClocksRecorded { move_number: 40, clocks: clocks(2400).unwrap() }]);
    assert_eq!(
        h.no(Event::Clocks { move_number: Some(41), clocks: clocks(1).unwrap() }),
        Refusal::ClocksAhead { move_number: 41, moves: 40 }
    );
    // A reading from the written record, after an earlier move.
    h.ok(Event::Clocks { move_number: Some(30), clocks: clocks(2500).unwrap() });
    h.play_to(72);
    h.ok(Event::SectionEnd { clocks: clocks(1800) });
    h.lineup(Black, Section::Three, [115, 116]);
    h.lineup(White, Section::Three, [215, 216]);
    h.play_to(143);
    h.ok(Event::SectionEnd { clocks: clocks(900) });
    h.play_to(190);
    h.ok(Event::Clocks { move_number: None, clocks: clocks(200).unwrap() });
    h.play_to(200);
    // 184: a draw at komi 3½, counted without a reading.
    h.ok(Event::Count { black_halves: 368, clocks: None });
    assert_eq!(h.m.clock_log().len(), 5);
    assert_eq!(h.m.playoff_clock_source(), Some((200, None)));
    // The reading after move 190 is not the time left at the end (move 200): refused.
    assert_eq!(
        h.no(Event::RestoreForPlayoff),
        Refusal::PlayoffClocksMissing { rule: PlayoffClock::AtGameEnd, move_number: 200 }
    );
    // The clocks stand still after the count: the referee reads them now.
    let end = [
        ClockReading { main_secs: 0, periods: 2, period_secs: 0, period_moves: 0, overtime: true },
        ClockReading { main_secs: 95, periods: 3, period_secs: 0, period_moves: 0, overtime: false },
    ];
    h.ok(Event::Clocks { move_number: None, clocks: end });
    assert_eq!(h.m.playoff_clock_source().map(|(p, e)| (p, e.map(|e| e.clocks))), Some((200, Some(end))));
    let a = h.ok(Event::RestoreForPlayoff);
    assert!(has(
        &a,
        |e| matches!(e, Effect::PlayoffStarted { clocks, clocks_after: 200, .. } if *clocks == end)
    ));
    // In the play-off, readings of the original game are closed; play-off readings are fine.
    assert_eq!(
        h.no(Event::Clocks { move_number: Some(142), clocks: end }),
        Refusal::ClocksBeforePlayoff { move_number: 142, restored_to: 143 }
    );
    h.ok(Event::Clocks { move_number: Some(143), clocks: end });
    assert_eq!(h.m.clock_log().last().map(|e| e.section), Some(Section::Playoff));
}

/// An event whose regulations restore the clocks with the position: the play-off starts from
/// the reading after move 143 (the section-2 break), not from an earlier one.
#[test]
fn playoff_time_at_the_end_of_section_two() {
    let config = RelayConfig {
        stage: Stage::Knockout,
        playoff_clock: PlayoffClock::AtSectionTwoEnd,
        ..RelayConfig::default()
    };
    let mut h = H::with(config, &[], &[]);
    h.lineup(Black, Section::One, [111, 112]);
    h.lineup(White, Section::One, [211, 212]);
    h.lineup(Black, Section::Two, [113, 114]);
    h.lineup(White, Section::Two, [213, 214]);
    h.at(T0);
    h.play_to(72);
    h.ok(Event::SectionEnd { clocks: None });
    h.lineup(Black, Section::Three, [115, 116]);
    h.lineup(White, Section::Three, [215, 216]);
    h.play_to(130);
    h.ok(Event::Clocks { move_number: None, clocks: clocks(1000).unwrap() });
    h.play_to(143);
    h.ok(Event::SectionEnd { clocks: None });
    h.play_to(180);
    h.ok(Event::Count { black_halves: 368, clocks: clocks(60) });
    assert_eq!(
        h.no(Event::RestoreForPlayoff),
        Refusal::PlayoffClocksMissing { rule: PlayoffClock::AtSectionTwoEnd, move_number: 143 }
    );
    // Copied from the written record of the break: after move 143.
    h.ok(Event::Clocks { move_number: Some(143), clocks: clocks(900).unwrap() });
    let a = h.ok(Event::RestoreForPlayoff);
    assert!(has(
        &a,
        |e| matches!(e, Effect::PlayoffStarted { clocks: c, clocks_after: 143, .. } if Some(*c) == clocks(900))
    ));
    assert_eq!(h.m.playoff_clocks().map(|e| e.move_number), Some(143));
}

/// The log of `h` as stored rows, none withdrawn.
fn logged(h: &H) -> Vec<LoggedEvent> {
    h.m.events()
        .iter()
        .enumerate()
        .map(|(i, (at, e))| LoggedEvent { seq: i as u32 + 1, at: *at, event: e.clone(), withdrawn: false })
        .collect()
}

fn fresh() -> RelayMatch {
    H::new(Stage::RoundRobin).m
}

/// A wrongly recorded event is withdrawn: the match is replayed from the events that stand,
/// penalties and the result recomputed; a withdrawal that would leave a later event invalid is
/// refused, naming that event, until it is withdrawn first.
#[test]
fn withdrawing_an_event_replays_the_rest() {
    let mut h = H::new(Stage::RoundRobin);
    h.lineup(Black, Section::One, [111, 112]);
    h.lineup(White, Section::One, [211, 212]);
    h.at(T0);
    h.ok(Event::MovesInOrder { through: 20 });
    h.card(111, Card::Yellow);
    h.ok(Event::MovesInOrder { through: 30 });
    let a = h.card(111, Card::Yellow); // the second yellow: a red, 111 leaves the board
    assert!(has(&a, |e| matches!(e, Effect::SeatVacant { side: Black, person: 111 })));
    h.ok(Event::ReplaceSentOff { side: Black, incoming: 113 });
    h.ok(Event::MovesInOrder { through: 40 });
    h.ok(Event::Count { black_halves: 380, clocks: None });
    assert_eq!(h.stones(), [3, 0], "1 + 2 for the second yellow (SecondYellow default)");
    assert!(h.m.result().is_some());
    let mut log = logged(&h);
    assert_eq!(log.len(), 9);
    assert_eq!(replay_standing(fresh(), &log).unwrap(), h.m, "replaying the log gives the match");
    let (first_yellow, replace, moves, count) = (4, 7, 8, 9);
    assert!(matches!(log[first_yellow as usize - 1].event, Event::Card { person: 111, .. }));

    assert_eq!(withdraw(fresh(), &log, 99).unwrap_err(), WithdrawError::UnknownEvent { seq: 99 });
    // Without the first yellow the second is a first: no red, no vacancy, so the replacement
    // after it would be refused. The referee must withdraw the later events first.
    let e = withdraw(fresh(), &log, first_yellow).unwrap_err();
    assert_eq!(
        e,
        WithdrawError::LaterEventFails {
            seq: first_yellow,
            later: replace,
            refusal: Refusal::NoVacancy { side: Black }
        }
    );
    // Without the replacement the seat is vacant and the moves after it cannot be played.
    assert_eq!(
        withdraw(fresh(), &log, replace).unwrap_err(),
        WithdrawError::LaterEventFails {
            seq: replace,
            later: moves,
            refusal: Refusal::SeatVacant { side: Black }
        }
    );

    // The count (the last event) always goes: the match is in play again, nothing decided.
    let m = withdraw(fresh(), &log, count).unwrap();
    assert_eq!((m.result(), m.phase(), m.moves()), (None, Phase::Playing, 40));
    log[count as usize - 1].withdrawn = true;
    assert_eq!(withdraw(fresh(), &log, count).unwrap_err(), WithdrawError::AlreadyWithdrawn { seq: count });
    // Then the moves, the replacement and the yellow: one yellow left, 111 back on the board.
    for seq in [moves, replace] {
        withdraw(fresh(), &log, seq).unwrap();
        log[seq as usize - 1].withdrawn = true;
    }
    let m = withdraw(fresh(), &log, first_yellow).unwrap();
    assert_eq!(m.counts().penalty_stones, [1, 0], "one yellow left");
    assert_eq!(m.side(Black).seats, Some([Some(111), Some(112)]));
    assert!(m.side(Black).sent_off.is_empty());
    assert_eq!(m.moves(), 30);
}

/// Art. 11: colours by the leaders' nigiri. Paired through the individual engine with the
/// event's colour method, every match gets a holder and a guesser by a recorded lot from its
/// table's seed (the leaders' ranks and ages are not on file), the guessing team Black until
/// the nigiri; performed from that seed it replays exactly, and recorded from the board the
/// colours follow the guess.
#[test]
fn leaders_nigiri_from_the_pairing_and_the_table_seed() {
    use crate::draw::lots::Purpose;
    use crate::draw::nigiri::{perform, record_outcome, Guess, NigiriRoles, RoleReason};
    use crate::pairing::{ColourMethod, History};
    use crate::rounds::{plan_round, table_seed, ColourSource, RoundInput};
    use crate::settings::{System, TournamentSettings};
    use crate::team::event::{Colours, Format, TeamSettings};
    use crate::team::standings::{pairing_inputs, team_pairing_settings, TeamEntry};

    let ts = TeamSettings { colours: Colours::LeadersNigiri, ..TeamSettings::default() };
    assert!(matches!(ts.colour_method(), ColourMethod::Nigiri { remote: false, .. }));
    assert_eq!(TeamSettings::default().colour_method(), ColourMethod::Balanced, "by default the draw");
    let boards = TeamSettings { format: Format::Boards, ..ts };
    assert_eq!(boards.colour_method(), ColourMethod::Balanced);

    let entries: Vec<TeamEntry> =
        (1..=4).map(|t| TeamEntry { rating: Some(2000), ..TeamEntry::plain(t) }).collect();
    let super::standings::PairingInputs { players, history, .. } =
        pairing_inputs(&entries, &[], &[], 1, None);
    assert_eq!(history, History::default());
    let mut base = crate::rounds::pairing_settings(&TournamentSettings::defaults(
        chrono::NaiveDate::MIN,
        crate::event_time::EventZone::default(),
    ));
    base.colours = ts.colour_method();
    let settings = team_pairing_settings(&base);
    let seed = 20_261_205;
    let draft = plan_round(&RoundInput {
        system: System::RoundRobin,
        settings: &settings,
        players: &players,
        history: &history,
        round: 1,
        seed,
        previous_plan: None,
        declared_rounds: 3,
        komi_q: 0,
    })
    .unwrap();
    assert_eq!(draft.games.len(), 2);
    for g in &draft.games {
        assert_eq!(g.colours, ColourSource::Nigiri);
        let n = g.nigiri.clone().expect("a nigiri per match");
        assert_eq!(n.reason, RoleReason::Lot, "no rank or age decides among leaders");
        assert_eq!((g.black, g.white), (n.guesser, n.holder), "the guesser is Black provisionally");
        let lot = draft
            .draws
            .iter()
            .find(|d| d.purpose == Purpose::NigiriHolder && d.seed == table_seed(seed, g.table))
            .expect("the role lot is recorded");
        assert_eq!(lot.seed, table_seed(seed, g.table));
        assert_eq!(lot.outcome, vec![n.holder]);
        // Performed from the table's seed: the same every time, and the colours follow.
        let roles = NigiriRoles { holder: n.holder, guesser: n.guesser, reason: n.reason };
        let rec = perform(roles, table_seed(seed, g.table));
        assert_eq!(rec, perform(roles, table_seed(seed, g.table)));
        assert_eq!(rec.seed, Some(table_seed(seed, g.table)));
        assert_eq!(rec.black, if rec.correct { n.guesser } else { n.holder });
        // At the board: 17 stones, guess odd → right → the guesser plays Black.
        let board = record_outcome(roles, 17, Guess::Odd).unwrap();
        assert_eq!((board.black, board.white, board.seed), (n.guesser, n.holder, None));
    }
}

// ---- Every way a match ends (Arts. 15.2, 17.5, 17.6, 23) -----------------------------------

fn end(ending: Ending, side: Option<Color>) -> Event {
    Event::End { ending, side, reason: "what the referee saw".into(), ruled_by: "裁判长".into() }
}

/// A match in play: section 1 seated, 20 moves played.
fn in_play(stage: Stage) -> H {
    let mut h = H::new(stage);
    h.lineup(Black, Section::One, [111, 112]);
    h.lineup(White, Section::One, [211, 212]);
    h.at(T0);
    h.play_to(20);
    h
}

/// Forfeit and withdrawal (Arts. 15.2, 23.2) and the referee's losses (Arts. 17.5, 17.6, 23.1)
/// decide the match through the rules crate, each with its reason and who ruled.
#[test]
fn one_sided_endings_decide_the_match() {
    for (ending, method) in [
        (Ending::Forfeit, ResultMethod::Forfeit),
        (Ending::Withdrawal, ResultMethod::Forfeit),
        (Ending::LossStoneMoved, ResultMethod::RefereeLoss { reason: LossReason::IntentionalStoneMoving }),
        (Ending::LossScattered, ResultMethod::RefereeLoss { reason: LossReason::ScatteredBoard }),
        (Ending::LossCheating, ResultMethod::RefereeLoss { reason: LossReason::Cheating }),
    ] {
        let mut h = in_play(Stage::RoundRobin);
        assert_eq!(h.no(end(ending, None)), Refusal::EndNeedsSide);
        let blank = Event::End { ending, side: Some(Black), reason: "  ".into(), ruled_by: "x".into() };
        assert_eq!(h.no(blank), Refusal::EndReasonMissing);
        let a = h.ok(end(ending, Some(Black)));
        assert!(has(&a, |e| *e == Effect::Ended { ending, side: Some(Black) }), "{ending:?}");
        let r = h.m.result().unwrap();
        assert_eq!((r.winner, r.method), (Some(White), method), "{ending:?}");
        assert_eq!(h.m.match_points(), Some([0, 3]));
        let rec = h.m.ending().unwrap();
        assert_eq!(
            (rec.move_number, rec.reason.as_str(), rec.ruled_by.as_str()),
            (20, "what the referee saw", "裁判长")
        );
        let record = TeamMatchRecord::from_relay(1, &h.m).unwrap();
        assert_eq!(record.forfeit, ending == Ending::Forfeit || ending == Ending::Withdrawal);
        assert_eq!(h.no(end(Ending::Forfeit, Some(White))), Refusal::MatchOver);
    }
}

/// The chief arbiter's double loss, draw and replay (Arts. 17.5 (3)–(5), 17.6 (1)–(3), 23.1).
#[test]
fn chief_arbiter_endings() {
    let mut h = in_play(Stage::RoundRobin);
    h.ok(end(Ending::DoubleLossStoneMoved, Some(Black)));
    assert_eq!(h.m.outcome(), Some(TeamOutcome::DoubleLoss));
    assert_eq!(h.m.match_points(), Some([0, 0]), "rules.md §12: both lose");
    assert_eq!(h.m.ending().unwrap().side, None, "a double loss is against both");

    let mut h = in_play(Stage::RoundRobin);
    let a = h.ok(end(Ending::ReplayScattered, None));
    assert!(has(&a, |e| *e
        == Effect::MatchDecided { outcome: TeamOutcome::NoResult, points: [0, 0], playoff: false }));
    let rec = TeamMatchRecord::from_relay(2, &h.m).unwrap();
    assert!(!rec.counts(), "a match to be replayed counts nowhere");

    // A draw ruled in a round robin stands: 1 : 1 (Art. 12).
    let mut h = in_play(Stage::RoundRobin);
    h.ok(end(Ending::DrawStoneMoved, None));
    assert_eq!((h.m.phase(), h.m.outcome()), (Phase::Over, Some(TeamOutcome::Draw)));
    assert_eq!(h.m.match_points(), Some([1, 1]));
}

/// Seed 003 Arts. 12, 17.5 (3), 17.6 (1) (rules.md decision): a knockout match must be decided.
/// A draw ruled before move 144 is replayed with the time each side had left (the reading at
/// the ruling is needed); from move 144 the 节棋 play-off follows from the position after move
/// 143; the event may replay always; a draw ruled in the play-off is its second draw, Black's.
#[test]
fn knockout_ruled_draw_is_decided_by_playoff_or_replay() {
    // Before move 144: a replay with the time left.
    let mut h = in_play(Stage::Knockout);
    assert_eq!(h.no(end(Ending::DrawScattered, None)), Refusal::ReplayClocksMissing { move_number: 20 });
    h.ok(Event::Clocks { move_number: None, clocks: clocks(3000).unwrap() });
    let a = h.ok(end(Ending::DrawScattered, None));
    assert!(has(&a, |e| *e == Effect::KnockoutDrawReplayed { early: true }));
    assert!(has(&a, |e| *e == Effect::ReplayWithTimeLeft { clocks: clocks(3000).unwrap(), clocks_after: 20 }));
    assert_eq!((h.m.phase(), h.m.outcome()), (Phase::Over, Some(TeamOutcome::NoResult)));
    assert_eq!(h.m.replay_time_left().map(|e| e.clocks), clocks(3000));
    let replay = RelayMatch::new(RelayConfig::default(), team(1, 100, 10), team(2, 200, 10), T0, &[], &[])
        .unwrap()
        .with_time_left(clocks(3000).unwrap());
    assert_eq!(replay.clock_log()[0].move_number, 0, "the replay starts from that reading");

    // From move 144: the play-off from the position after move 143.
    let mut h = H::new(Stage::Knockout);
    h.lineup(Black, Section::One, [111, 112]);
    h.lineup(White, Section::One, [211, 212]);
    h.lineup(Black, Section::Two, [113, 114]);
    h.lineup(White, Section::Two, [213, 214]);
    h.at(T0);
    h.play_to(72);
    h.ok(Event::SectionEnd { clocks: None });
    h.lineup(Black, Section::Three, [115, 116]);
    h.lineup(White, Section::Three, [215, 216]);
    h.play_to(143);
    h.ok(Event::SectionEnd { clocks: None });
    h.play_to(160);
    let mut replay_always = h.clone();
    let a = h.ok(end(Ending::DrawStoneMoved, None));
    assert!(has(&a, |e| *e == Effect::PlayoffRequired));
    assert_eq!(h.m.phase(), Phase::PlayoffPending);
    h.ok(Event::Clocks { move_number: None, clocks: clocks(500).unwrap() });
    let a = h.ok(Event::RestoreForPlayoff);
    assert!(has(&a, |e| matches!(e, Effect::PlayoffStarted { restored_to: 143, clocks_after: 160, .. })));
    h.lineup(Black, Section::Playoff, [111, 113]);
    h.lineup(White, Section::Playoff, [211, 213]);
    h.t += 200;
    h.play_to(150);
    // A draw ruled in the play-off is its second draw: Black wins (Art. 12).
    let a = h.ok(end(Ending::DrawStoneMoved, None));
    assert!(has(&a, |e| *e == Effect::PlayoffDrawToBlack));
    assert_eq!(h.m.outcome(), Some(TeamOutcome::FirstWins));

    // The event's "replay always".
    replay_always.m.config.knockout_draw = KnockoutDraw::Replay;
    replay_always.ok(Event::Clocks { move_number: None, clocks: clocks(400).unwrap() });
    let a = replay_always.ok(end(Ending::DrawStoneMoved, None));
    assert!(has(&a, |e| *e == Effect::KnockoutDrawReplayed { early: false }));
    assert_eq!(replay_always.m.outcome(), Some(TeamOutcome::NoResult));
}

/// Seed 003 Art. 20.3: a triple ko or eternal life ends the match by the event's choice, for
/// nobody's fault: no result (replayed with the time left), a draw, or an extra game (a new
/// game with full time).
#[test]
fn cycle_ends_the_match_by_the_events_choice() {
    for (cycle, outcome, time_left) in [
        (CycleOutcome::NoResult, TeamOutcome::NoResult, true),
        (CycleOutcome::Draw, TeamOutcome::Draw, false),
        (CycleOutcome::ExtraGame, TeamOutcome::NoResult, false),
    ] {
        let mut h = in_play(Stage::RoundRobin);
        h.m.config.rules.cycle = cycle;
        if time_left {
            assert_eq!(h.no(end(Ending::Cycle, None)), Refusal::ReplayClocksMissing { move_number: 20 });
        }
        h.ok(Event::Clocks { move_number: None, clocks: clocks(2000).unwrap() });
        h.ok(end(Ending::Cycle, None));
        assert_eq!(h.m.outcome(), Some(outcome), "{cycle:?}");
        assert_eq!(h.m.ending().unwrap().side, None, "nobody is at fault");
        assert_eq!(h.m.replay_time_left().is_some(), time_left, "{cycle:?}");
    }
}

/// Seed 003 Art. 18.3 (a ko retaken without a threat: void, one pass, a yellow card) and Art.
/// 19 (a forbidden point: void, one pass): the turn becomes a forced pass of the record.
#[test]
fn void_stones_become_forced_passes() {
    let mut h = in_play(Stage::RoundRobin);
    let due = h.m.expected_player().unwrap();
    let other = h.m.side(Black).seats.unwrap().into_iter().flatten().find(|&p| p != due).unwrap();
    assert_eq!(
        h.no(Event::VoidMove { player: other, offence: VoidOffence::KoWithoutThreat }),
        Refusal::NotThisPlayersTurn { person: other, expected: due }
    );
    assert_eq!(
        h.no(Event::VoidMove { player: 211, offence: VoidOffence::KoWithoutThreat }),
        Refusal::NotYourTurn { to_move: Black }
    );
    let a = h.ok(Event::VoidMove { player: due, offence: VoidOffence::KoWithoutThreat });
    assert!(has(&a, |e| *e
        == Effect::MoveVoid { number: 21, side: Black, player: due, offence: VoidOffence::KoWithoutThreat }));
    assert!(has(&a, |e| *e == Effect::ForcedPass { number: 21, side: Black, player: due }));
    assert_eq!((a.counts.moves, a.counts.penalty_stones), (21, [1, 0]), "yellow: 1 stone");
    assert!(ruled(&a, |s| matches!(s, Said::VoidMove { .. })), "{:?}", rulings_said(&a));
    let due = h.m.expected_player().unwrap();
    let a = h.ok(Event::VoidMove { player: due, offence: VoidOffence::ForbiddenPoint });
    assert_eq!((a.counts.moves, a.counts.penalty_stones), (22, [1, 0]), "Art. 19: no card");
    assert!(h.m.move_log().last().unwrap().pass);
}

/// Seed 003 Art. 10.5 暂停 (2): a delay in returning from a timeout costs advice, a yellow card
/// or an added forced pass (停着), played at the side's next turn; red is not among them.
#[test]
fn timeout_delay_remedies() {
    let mut h = in_play(Stage::RoundRobin);
    assert_eq!(h.no(Event::AddedPass { person: 211 }), Refusal::NoTimeoutTaken { side: White });
    h.ok(Event::RequestTimeout { side: White });
    h.ok(Event::ConfirmRequest { side: White });
    h.ok(Event::TimeoutEnd { side: White });
    assert!(matches!(
        h.no(Event::Card { person: 211, card: Card::Red, offence: Some(CardOffence::TimeoutDelay) }),
        Refusal::CardNotForOffence { .. }
    ));
    let a = h.ok(Event::AddedPass { person: 211 });
    assert!(has(&a, |e| *e == Effect::PassAdded { side: White }));
    assert_eq!(a.counts.owed_passes, [0, 1], "Black is to move: White passes at its turn");
    let p = h.next_player();
    let a = h.mv(p);
    assert!(has(&a, |e| matches!(e, Effect::ForcedPass { number: 22, side: White, .. })));
    assert_eq!((a.counts.owed_passes, a.counts.penalty_stones), ([0, 0], [0, 0]));
}

/// Seed 003 Art. 24.4 as the project reads it (rules.md decision): a red card in section 1 of
/// a six-player team leaves nobody who may come on (each later section needs two unplayed
/// players), so the carded player stays on, the side owes a forced pass, 2 stones, and no
/// substitution is counted; sections 2 and 3 are fielded; the ban on the next game stands.
/// With more players the seat is vacated as before.
#[test]
fn red_card_in_section_one_of_a_six_player_team() {
    let m = RelayMatch::new(RelayConfig::default(), team(1, 100, 6), team(2, 200, 7), T0, &[], &[]).unwrap();
    let mut h = H { m, t: T0 - 900 };
    h.lineup(Black, Section::One, [111, 112]);
    h.lineup(White, Section::One, [211, 212]);
    h.at(T0);
    h.play_to(30);
    assert_eq!(
        h.m.may_come_on(Black, 113),
        Err(Refusal::WouldLeaveShort { person: 113, section: Section::Three })
    );
    let a = h.card(111, Card::Red);
    assert!(has(&a, |e| *e == Effect::StaysOn { side: Black, person: 111 }));
    assert_eq!(a.counts.substitutions_left, [3, 3], "nobody was sent off");
    // Black is to move: its owed pass is played at once (move 31).
    assert!(has(&a, |e| matches!(e, Effect::ForcedPass { number: 31, side: Black, .. })));
    assert_eq!((a.counts.penalty_stones, a.counts.owed_passes), ([2, 0], [0, 0]));
    assert_eq!(h.m.barred_next_game(Black), vec![111]);
    h.play_to(72);
    h.ok(Event::SectionEnd { clocks: None });
    h.lineup(Black, Section::Two, [113, 114]);
    h.lineup(White, Section::Two, [213, 214]);
    h.play_to(143);
    h.ok(Event::SectionEnd { clocks: None });
    h.lineup(Black, Section::Three, [115, 116]);
    h.lineup(White, Section::Three, [215, 216]);
    h.play_to(150);

    // Seven players: one may come on (five left for four seats), the seat is vacated.
    let m = RelayMatch::new(RelayConfig::default(), team(1, 100, 6), team(2, 200, 7), T0, &[], &[]).unwrap();
    let mut h = H { m, t: T0 - 900 };
    h.lineup(Black, Section::One, [111, 112]);
    h.lineup(White, Section::One, [211, 212]);
    h.at(T0);
    h.play_to(30);
    let a = h.card(211, Card::Red);
    assert!(has(&a, |e| *e == Effect::SeatVacant { side: White, person: 211 }));
    h.ok(Event::ReplaceSentOff { side: White, incoming: 217 });
}

/// While a knockout draw waits for the play-off, a team may still forfeit it; a referee's loss
/// for the game in play no longer applies.
#[test]
fn forfeit_of_the_playoff() {
    let mut h = drawn_knockout();
    assert_eq!(h.no(end(Ending::LossCheating, Some(White))), Refusal::PlayoffPending);
    h.ok(end(Ending::Forfeit, Some(White)));
    assert_eq!(h.m.outcome(), Some(TeamOutcome::FirstWins));
    assert!(h.m.first_result().is_some(), "the drawn game stays on record");
}

/// Art. 10.3 needs two players a section, Art. 10.4 bars those who played, Art. 24.3 the
/// red-carded: a side short of two for the section due loses; the end is refused while it
/// still has two.
#[test]
fn no_eligible_player_for_the_section_due() {
    let m = RelayMatch::new(RelayConfig::default(), team(1, 100, 6), team(2, 200, 6), T0, &[], &[]).unwrap();
    let mut h = H { m, t: T0 - 900 };
    h.lineup(Black, Section::One, [111, 112]);
    h.lineup(White, Section::One, [211, 212]);
    h.at(T0);
    assert_eq!(h.no(end(Ending::NoEligiblePlayer, Some(Black))), Refusal::NoLineupDue { side: Black });
    h.play_to(72);
    h.ok(Event::SectionEnd { clocks: None });
    assert_eq!(h.m.short_of_players(), None);
    h.card(113, Card::Red);
    h.card(114, Card::Red);
    assert_eq!(
        h.no(end(Ending::NoEligiblePlayer, Some(Black))),
        Refusal::StillEligible { side: Black, section: Section::Two, eligible: 2 }
    );
    h.card(115, Card::Red);
    assert_eq!(h.m.eligible_players(Black, Section::Two), vec![116]);
    assert_eq!(h.m.short_of_players(), Some((Black, Section::Two, 1)));
    h.ok(end(Ending::NoEligiblePlayer, Some(Black)));
    assert_eq!(h.m.result().unwrap().winner, Some(White));
    assert_eq!(h.m.match_points(), Some([0, 3]));
}

/// Art. 14: the executing leader confirms the resignation; not a player at the board, not a
/// red-carded person, not someone of the other team.
#[test]
fn resignation_is_confirmed_by_the_executing_leader() {
    let mut h = in_play(Stage::RoundRobin);
    h.card(215, Card::Red);
    assert_eq!(h.no(Event::Resign { side: White, by: Some(211) }), Refusal::ResignerAtBoard { person: 211 });
    assert_eq!(h.no(Event::Resign { side: White, by: Some(215) }), Refusal::Barred { person: 215 });
    assert!(matches!(
        h.no(Event::Resign { side: White, by: Some(100) }),
        Refusal::NotOnTeam { person: 100, .. }
    ));
    // Art. 14: the executing leader, and the leader is present: the coach may not.
    let leader = Some(ExecutingLeader { person: 200, basis: LeaderBasis::Leader });
    assert_eq!(
        h.no(Event::Resign { side: White, by: Some(201) }),
        Refusal::NotExecutingLeader { side: White, person: 201, executing: leader }
    );
    assert_eq!(
        h.no(Event::Attendance { present: vec![], absent: vec![212] }),
        Refusal::NotTeamStaff { person: 212 }
    );
    // The leader is recorded absent (Art. 10.1): the coach acts.
    let a = h.ok(Event::Attendance { present: vec![201], absent: vec![200] });
    let coach = Some(ExecutingLeader { person: 201, basis: LeaderBasis::Coach });
    assert!(has(&a, |e| *e == Effect::ExecutingLeader { side: White, leader: coach }));
    assert_eq!(
        h.no(Event::Resign { side: White, by: Some(200) }),
        Refusal::NotExecutingLeader { side: White, person: 200, executing: coach }
    );
    h.ok(Event::Resign { side: White, by: Some(201) });
    assert_eq!(h.m.resigned_by(), Some(201));
    assert_eq!(h.m.outcome(), Some(TeamOutcome::FirstWins));
}

/// Art. 10.1: a section's line-ups are public once both are in or the section has started.
#[test]
fn lineups_are_public_once_both_are_in() {
    let mut h = H::new(Stage::RoundRobin);
    assert!(!h.m.lineups_public(Section::One));
    h.lineup(Black, Section::One, [111, 112]);
    assert!(!h.m.lineups_public(Section::One), "White's is still due");
    h.lineup(White, Section::One, [211, 212]);
    assert!(h.m.lineups_public(Section::One));
    h.lineup(Black, Section::Two, [113, 114]);
    assert!(!h.m.lineups_public(Section::Two));
    h.at(T0);
    h.play_to(72);
    h.ok(Event::SectionEnd { clocks: None });
    h.play_to(72);
    assert!(!h.m.lineups_public(Section::Two), "section 2 waits for White's line-up");
    h.ok(end(Ending::Forfeit, Some(White)));
    assert!(h.m.lineups_public(Section::Two), "everything is public once the match is over");
}

/// A card records its offence; the offence fixes the card (Arts. 17.2–17.4, 18, 22.2,
/// 22.5, 23.9, 24.2); advice costs nothing; malicious fouls are counted per side.
#[test]
fn cards_carry_their_offence() {
    use super::cards::{CardOffence, RedCause};
    use super::penalties::penalty_rows;
    let mut h = in_play(Stage::RoundRobin);
    let card = |person, card, o| Event::Card { person, card, offence: Some(o) };
    assert_eq!(
        h.no(card(111, Card::Advice, CardOffence::TakeBack)),
        Refusal::CardNotForOffence {
            offence: CardOffence::TakeBack,
            card: Card::Advice,
            allowed: vec![Card::Yellow]
        }
    );
    h.ok(card(111, Card::Advice, CardOffence::EarlyClockPress));
    assert_eq!(h.stones(), [0, 0], "advice costs no stone (Art. 17.4)");
    h.ok(card(111, Card::Yellow, CardOffence::TakeBack));
    h.ok(card(211, Card::Yellow, CardOffence::RepeatedWrongClockPress));
    h.ok(card(111, Card::Yellow, CardOffence::PressBeforeCapturesRemoved));
    h.ok(Event::ReplaceSentOff { side: Black, incoming: 113 });
    assert_eq!(h.m.counts().malicious_fouls, [0, 1], "Art. 22.5: repeated wrong presses");
    let rows = penalty_rows(&h.m.config().rules, h.m.inputs(), h.m.log()).unwrap();
    let got: Vec<_> = rows.iter().map(|r| (r.offence, r.red, r.stones)).collect();
    assert_eq!(
        got,
        vec![
            (Some(CardOffence::EarlyClockPress), None, 0),
            (Some(CardOffence::TakeBack), None, 1),
            (Some(CardOffence::RepeatedWrongClockPress), None, 1),
            (Some(CardOffence::PressBeforeCapturesRemoved), Some(RedCause::SecondYellow), 2),
        ]
    );
    h.ok(card(212, Card::Red, CardOffence::LeavingSeat));
    assert_eq!(h.m.counts().malicious_fouls, [0, 2], "Art. 23.9: red and one malicious foul");
}

/// A late line-up is recorded with its lateness (one already in is not changed late);
/// a substitution can be annulled (Art. 10.5 (3)); a timeout's end is recorded.
#[test]
fn late_lineups_annulled_substitutions_and_timeout_ends() {
    let mut h = H::new(Stage::RoundRobin);
    h.lineup(Black, Section::One, [111, 112]);
    h.at(T0 - 240);
    let a = h.lineup(White, Section::One, [211, 212]);
    assert!(
        has(&a, |e| *e == Effect::LineupLate { side: White, section: Section::One, secs: 61 }),
        "{:?}",
        a.effects
    );
    assert_eq!(h.m.side(White).lineups[0].unwrap().late_secs, 61);
    assert!(matches!(
        h.no(Event::SubmitLineup { side: Black, section: Section::One, players: [113, 114] }),
        Refusal::LineupLate { .. }
    ));
    h.at(T0);
    h.play_to(10);
    h.ok(Event::RequestSubstitution { out: 112, incoming: 117 });
    h.ok(Event::ConfirmRequest { side: Black });
    h.at(T0 + 400);
    h.ok(Event::SubstituteSeated { side: Black });
    let a = h.ok(Event::AnnulSubstitution { side: Black });
    assert!(has(&a, |e| *e == Effect::SubstitutionAnnulled { side: Black, out: 112, incoming: 117, left: 2 }));
    assert_eq!(h.m.side(Black).seats.unwrap(), [Some(111), Some(112)], "112 returns");
    assert_eq!(h.m.counts().substitutions_left[0], 2, "the annulled substitution stays used");
    assert_eq!(
        h.no(Event::AnnulSubstitution { side: Black }),
        Refusal::NoSubstitutionToAnnul { side: Black }
    );
    // 117 played no move: he may still come on.
    h.ok(Event::RequestSubstitution { out: 112, incoming: 117 });
    h.ok(Event::CancelRequest { side: Black });
    assert_eq!(h.no(Event::TimeoutEnd { side: White }), Refusal::NoTimeoutRunning { side: White });
    h.ok(Event::RequestTimeout { side: White });
    h.at(T0 + 500);
    h.ok(Event::ConfirmRequest { side: White });
    h.at(T0 + 590);
    let a = h.ok(Event::TimeoutEnd { side: White });
    assert!(has(&a, |e| *e == Effect::TimeoutEnded { side: White, secs: 90 }));
    assert_eq!(h.m.side(White).timeouts[0].ended_at, Some(T0 + 591));
}
