//! A relay match's events, effects and refusals in the reader's language, naming people by
//! the caller's `person` (the page's rosters; never a number parsed back out of a sentence).
//! Moved here from `domain::team::relay`, which returns only the typed values. Every sentence
//! is a catalog key (`relay.ev_*` events, `relay.fx_*` effects, `relay.rf_*` refusals); the
//! functions below only choose the key and hand it the typed values.

use super::tr;
use super::Lang;
use crate::domain::event_time::EventZone;
use crate::domain::team::cards::CardOffence;
use crate::domain::team::ending::{EndRecord, Ending};
use crate::domain::team::lineup::Section;
use crate::domain::team::matches::MatchRefusal;
use crate::domain::team::relay::{
    Card, Effect, Event, Placed, PlayoffClock, Refusal, RelayMatch, RequestKind, SetupError,
    SubstitutionKind, VoidOffence,
};
use crate::domain::team::roster::{ExecutingLeader, LeaderBasis};
use crate::domain::team::standings::TeamOutcome;
use crate::domain::team::withdraw::WithdrawError;
use crate::domain::team::PersonId;
use rules::board::Color;

/// Names a person of the match's rosters.
type Person<'a> = &'a dyn Fn(PersonId) -> String;

/// What the wording of a [`MatchRefusal`] needs besides the language: the event's zone (the
/// times it names), the rosters' names, and whether it answers the ruling form (only the chief
/// arbiter rules, and only the chief arbiter withdraws: two sentences).
pub struct MatchWords<'a> {
    pub zone: EventZone,
    pub person: Person<'a>,
    pub ruling: bool,
}

impl Lang {
    /// Why an event cannot be withdrawn (the refusal of the later event named).
    pub fn withdraw_error(self, e: &WithdrawError, person: Person) -> String {
        match e {
            WithdrawError::UnknownEvent { seq } => tr!(self, "relay.wd_unknown", event = seq),
            WithdrawError::AlreadyWithdrawn { seq } => tr!(self, "relay.wd_already", event = seq),
            WithdrawError::LaterEventFails { seq, later, refusal } => {
                tr!(
                    self,
                    "relay.wd_later_fails",
                    event = seq,
                    later,
                    refusal = self.relay_refusal(refusal, person)
                )
            }
        }
    }

    /// `items` in a row, as the language lists them ("A, B" / "A、B").
    fn list(self, items: impl Iterator<Item = String>) -> String {
        items.collect::<Vec<_>>().join(self.t("relay.list_sep"))
    }

    /// A count of half points as points: 369 → "184½".
    fn halves(n: u32) -> String {
        format!("{}{}", n / 2, if n % 2 == 1 { "½" } else { "" })
    }

    /// When a section's line-up is due: 5 minutes before a section (Art. 10.1), at the end of
    /// the play-off's 3-minute preparation (Art. 12).
    fn due(self, s: Section) -> &'static str {
        self.t(match s {
            Section::Playoff => "relay.due_playoff",
            _ => "relay.due_section",
        })
    }

    /// A void stone's offence with its article (Arts. 18.3, 19).
    pub fn void_offence(self, o: VoidOffence) -> &'static str {
        self.t(match o {
            VoidOffence::KoWithoutThreat => "relay.void_ko",
            VoidOffence::ForbiddenPoint => "relay.void_forbidden",
        })
    }

    /// An executing leader with the basis of the role (Art. 10.1: leader, coach, captain,
    /// then a section's player): "王五 (coach)" / "王五（教练）".
    pub fn executing_leader(self, el: &ExecutingLeader, person: Person) -> String {
        let basis = match el.basis {
            LeaderBasis::Leader => self.t("team.role_leader"),
            LeaderBasis::Coach => self.t("team.role_coach"),
            LeaderBasis::Captain => self.t("team.role_captain"),
            LeaderBasis::SectionPlayer(sec) => self.section(sec),
        };
        tr!(self, "relay.leader_basis", person = person(el.person), basis)
    }

    /// Persons in a row, or "—" for none.
    fn people(self, ps: &[PersonId], person: Person) -> String {
        if ps.is_empty() {
            return "—".into();
        }
        self.list(ps.iter().map(|&p| person(p)))
    }

    /// A card as the form names it: "yellow" / "黄牌".
    fn card_short(self, c: Card) -> &'static str {
        self.t(match c {
            Card::Advice => "relay.advice",
            Card::Yellow => "relay.yellow",
            Card::Red => "relay.red",
        })
    }
}

/// Events: what was recorded, as the event log and the withdrawal form name it.
impl Lang {
    pub fn relay_event(self, e: &Event, person: Person) -> String {
        let side = |c: &Color| self.side(*c);
        match e {
            Event::SubmitLineup { side: c, section, players } => tr!(
                self,
                "relay.ev_lineup",
                side = side(c),
                section = self.section(*section),
                first = person(players[0]),
                second = person(players[1]),
            ),
            Event::Move { player, at: None } => tr!(self, "relay.ev_move", person = person(*player)),
            // A relay game is played on the 19-line board of its rule set (seed 003 Art. 12).
            Event::Move { player, at: Some(Placed::Point(p)) } => {
                tr!(self, "relay.ev_move_at", person = person(*player), point = p.display(19))
            }
            Event::Move { player, at: Some(Placed::Pass) } => {
                tr!(self, "relay.ev_move_pass", person = person(*player))
            }
            Event::ClaimOrderError { claimant } => tr!(self, "relay.ev_claim", side = side(claimant)),
            Event::RequestSubstitution { out, incoming } => {
                tr!(self, "relay.ev_sub_request", incoming = person(*incoming), out = person(*out))
            }
            Event::RequestTimeout { side: c } => tr!(self, "relay.ev_timeout_request", side = side(c)),
            Event::ConfirmRequest { side: c } => tr!(self, "relay.ev_confirm", side = side(c)),
            Event::CancelRequest { side: c } => tr!(self, "relay.ev_cancel", side = side(c)),
            Event::SubstituteSeated { side: c } => tr!(self, "relay.ev_seated", side = side(c)),
            Event::AnnulSubstitution { side: c } => tr!(self, "relay.ev_annul", side = side(c)),
            Event::TimeoutEnd { side: c } => tr!(self, "relay.ev_timeout_end", side = side(c)),
            Event::ReplaceSentOff { side: c, incoming } => {
                tr!(self, "relay.ev_replace", side = side(c), person = person(*incoming))
            }
            Event::Card { person: p, card, .. } => {
                let key = match card {
                    Card::Advice => "relay.ev_card_advice",
                    Card::Yellow => "relay.ev_card_yellow",
                    Card::Red => "relay.ev_card_red",
                };
                tr!(self, key, person = person(*p))
            }
            Event::ByoYomiTimeout { player } => tr!(self, "relay.ev_byoyomi", person = person(*player)),
            Event::SectionEnd { .. } => self.t("relay.ev_section_end").into(),
            Event::Clocks { move_number: Some(n), .. } => tr!(self, "relay.ev_clocks_after", move = n),
            Event::Clocks { move_number: None, .. } => self.t("relay.ev_clocks").into(),
            Event::Count { black_halves, .. } => {
                tr!(self, "relay.ev_count", black = Lang::halves(*black_halves))
            }
            Event::Resign { side: c, by: None } => tr!(self, "relay.ev_resign", side = side(c)),
            Event::Resign { side: c, by: Some(p) } => {
                tr!(self, "relay.ev_resign_by", side = side(c), person = person(*p))
            }
            Event::End { ending, side: Some(c), .. } => {
                tr!(self, "relay.ev_end_against", ending = self.t(ending_key(*ending)), side = side(c))
            }
            Event::End { ending, side: None, .. } => {
                tr!(self, "relay.ev_end", ending = self.t(ending_key(*ending)))
            }
            Event::RestoreForPlayoff => self.t("relay.ev_restore").into(),
            Event::MovesInOrder { through } => tr!(self, "relay.ev_moves_in_order", through),
            Event::Attendance { present, absent } => {
                tr!(
                    self,
                    "relay.ev_attendance",
                    present = self.people(present, person),
                    absent = self.people(absent, person)
                )
            }
            Event::VoidMove { player, offence } => {
                tr!(self, "relay.ev_void", person = person(*player), offence = self.void_offence(*offence))
            }
            Event::AddedPass { person: p } => tr!(self, "relay.ev_added_pass", person = person(*p)),
        }
    }
}

/// Effects: what an accepted event did.
impl Lang {
    pub fn relay_effect(self, e: &Effect, person: Person) -> String {
        let side = |c: &Color| self.side(*c);
        let sec = |s: &Section| self.section(*s);
        match e {
            Effect::LineupAccepted { side: c, section, players, replaced } => tr!(
                self,
                if *replaced { "relay.fx_lineup_replaced" } else { "relay.fx_lineup_accepted" },
                side = side(c),
                section = sec(section),
                first = person(players[0]),
                second = person(players[1]),
            ),
            Effect::LineupLate { side: c, section, secs } => {
                tr!(
                    self,
                    "relay.fx_lineup_late",
                    side = side(c),
                    section = sec(section),
                    seconds = secs,
                    due = self.due(*section)
                )
            }
            Effect::SubstitutionAnnulled { side: c, out, incoming, left } => {
                tr!(
                    self,
                    "relay.fx_sub_annulled",
                    side = side(c),
                    incoming = person(*incoming),
                    out = person(*out),
                    left
                )
            }
            Effect::TimeoutEnded { side: c, secs } => {
                tr!(self, "relay.fx_timeout_ended", side = side(c), seconds = secs)
            }
            Effect::Seated { section, order } => {
                tr!(
                    self,
                    "relay.fx_seated",
                    section = sec(section),
                    order = self.list(order.iter().map(|&p| person(p)))
                )
            }
            Effect::MovePlayed { number, side: c, player } => {
                tr!(self, "relay.fx_move", move = number, side = side(c), person = person(*player))
            }
            Effect::OrderErrorClaimable { number, side: c, player, claimant } => {
                tr!(self, "relay.fx_order_error", move = number, side = side(c), person = person(*player), claimant = side(claimant))
            }
            Effect::OrderErrorLapsed { number, side: c } => {
                tr!(self, "relay.fx_order_lapsed", move = number, side = side(c))
            }
            Effect::Ruling { said } | Effect::GameOver { said, .. } => {
                self.effect(said, &|p| Some(person(p)))
            }
            Effect::RedCountsAsSubstitution { side: c, left } => {
                tr!(self, "relay.fx_red_counts", side = side(c), left)
            }
            Effect::AnySubstitutionGained { side: c } => tr!(self, "relay.fx_any_sub", side = side(c)),
            Effect::SeatVacant { side: c, person: p } => {
                tr!(self, "relay.fx_seat_vacant", side = side(c), person = person(*p))
            }
            Effect::StaysOn { side: c, person: p } => {
                tr!(self, "relay.fx_stays_on", side = side(c), person = person(*p))
            }
            Effect::LineupReopened { side: c, section } => {
                tr!(self, "relay.fx_lineup_reopened", side = side(c), section = sec(section))
            }
            Effect::ForcedPass { number, side: c, player } => {
                tr!(self, "relay.fx_forced_pass", move = number, side = side(c), person = person(*player))
            }
            Effect::RequestMade { side: c, request, order } => {
                let what = self.request(request, person);
                let who = order.player.map(person).unwrap_or_else(|| self.t("relay.either_player").into());
                tr!(self, "relay.fx_request", side = side(c), what, move = order.next_move, next_side = side(&order.side), player = who)
            }
            Effect::RequestCancelled { side: c } => tr!(self, "relay.fx_request_cancelled", side = side(c)),
            Effect::SubstitutionMade { side: c, out, incoming, kind, left } => tr!(
                self,
                "relay.fx_sub_made",
                side = side(c),
                incoming = person(*incoming),
                out = person(*out),
                how = self.substitution_how(*kind, *left),
            ),
            Effect::SeatingDelay { side: c, secs, limit } => {
                tr!(self, "relay.fx_seating_delay", side = side(c), seconds = secs, limit)
            }
            Effect::SeatedInTime { side: c, secs } => {
                tr!(self, "relay.fx_seated_in_time", side = side(c), seconds = secs)
            }
            Effect::TimeoutTaken { side: c, left } => {
                tr!(self, "relay.fx_timeout_taken", side = side(c), left)
            }
            Effect::SectionEnded { section, moves, .. } => {
                tr!(self, "relay.fx_section_ended", section = sec(section), move = moves)
            }
            Effect::MovesPlayed { first, last } if first == last => {
                tr!(self, "relay.fx_move_in_order", move = first)
            }
            Effect::MovesPlayed { first, last } => tr!(self, "relay.fx_moves_in_order", first, last),
            Effect::PlayoffRequired => self.t("relay.fx_playoff_required").into(),
            Effect::Ended { side: Some(c), .. } => tr!(self, "relay.fx_ended_against", side = side(c)),
            Effect::Ended { ending: Ending::Cycle, .. } => self.t("relay.fx_ended_cycle").into(),
            Effect::Ended { side: None, .. } => self.t("relay.fx_ended_ruling").into(),
            Effect::PlayoffStarted { restored_to, clocks, clocks_after, .. } => {
                let [b, w] = clocks.map(|r| self.clock_reading(&r));
                tr!(self, "relay.fx_playoff_started", restored_to, black = b, white = w, move = clocks_after)
            }
            Effect::ClocksRecorded { move_number, clocks } => {
                let [b, w] = clocks.map(|r| self.clock_reading(&r));
                tr!(self, "relay.fx_clocks", move = move_number, black = b, white = w)
            }
            Effect::ExecutingLeader { side: c, leader: Some(el) } => {
                tr!(self, "relay.fx_executing", side = side(c), leader = self.executing_leader(el, person))
            }
            Effect::ExecutingLeader { side: c, leader: None } => {
                tr!(self, "relay.fx_executing_none", side = side(c))
            }
            Effect::MoveVoid { number, side: c, player, offence } => tr!(
                self,
                "relay.fx_move_void",
                move = number,
                side = side(c),
                person = person(*player),
                offence = self.void_offence(*offence),
            ),
            Effect::PassAdded { side: c } => tr!(self, "relay.fx_pass_added", side = side(c)),
            Effect::KnockoutDrawReplayed { early: true } => self.t("relay.fx_ko_draw_replayed_early").into(),
            Effect::KnockoutDrawReplayed { early: false } => self.t("relay.fx_ko_draw_replayed").into(),
            Effect::ReplayWithTimeLeft { clocks, clocks_after } => {
                let [b, w] = clocks.map(|r| self.clock_reading(&r));
                tr!(self, "relay.fx_replay_time_left", black = b, white = w, move = clocks_after)
            }
            Effect::PlayoffDrawToBlack => self.t("relay.fx_playoff_draw_black").into(),
            Effect::MatchDecided { outcome, points, playoff } => tr!(
                self,
                if *playoff { "relay.fx_decided_playoff" } else { "relay.fx_decided" },
                outcome = self.team_outcome(*outcome),
                black = points[0],
                white = points[1],
            ),
        }
    }

    /// What a side asks for: "substitution A for B" / "换人（A换下B）", "timeout" / "暂停".
    fn request(self, r: &RequestKind, person: Person) -> String {
        match r {
            RequestKind::Substitution { out, incoming } => {
                tr!(self, "relay.req_substitution", incoming = person(*incoming), out = person(*out))
            }
            RequestKind::Timeout => self.t("relay.req_timeout").into(),
        }
    }

    /// How a substitution counts: the regular ones left, the extra one of Art. 24.4, or a
    /// red-carded player's replacement.
    fn substitution_how(self, kind: SubstitutionKind, left: u32) -> String {
        match kind {
            SubstitutionKind::Regular => tr!(self, "relay.how_left", left),
            SubstitutionKind::Any => self.t("relay.how_any").into(),
            SubstitutionKind::RedCardReplacement => self.t("relay.how_red").into(),
        }
    }

    /// A team match's outcome, Black's team first.
    fn team_outcome(self, o: TeamOutcome) -> &'static str {
        self.t(match o {
            TeamOutcome::FirstWins => "relay.outcome_first_wins",
            TeamOutcome::SecondWins => "relay.outcome_second_wins",
            TeamOutcome::Draw => "relay.outcome_draw",
            TeamOutcome::DoubleLoss => "relay.outcome_double_loss",
            TeamOutcome::NoResult => "relay.outcome_no_result",
        })
    }
}

/// Refusals: why an event was refused.
impl Lang {
    pub fn relay_refusal(self, e: &Refusal, person: Person) -> String {
        let side = |c: &Color| self.side(*c);
        let sec = |s: &Section| self.section(*s);
        match e {
            Refusal::MatchOver => self.t("relay.rf_match_over").into(),
            Refusal::PlayoffPending => self.t("relay.rf_playoff_pending").into(),
            Refusal::NoPlayoffPending => self.t("relay.rf_no_playoff").into(),
            Refusal::UnknownPerson { person: p } => tr!(self, "relay.rf_unknown_person", person = person(*p)),
            Refusal::NotOnTeam { person: p, team } => {
                tr!(self, "relay.rf_not_on_team", person = person(*p), team)
            }
            Refusal::NotAPlayer { person: p } => tr!(self, "relay.rf_not_a_player", person = person(*p)),
            Refusal::SamePlayerTwice { person: p } => tr!(self, "relay.rf_twice", person = person(*p)),
            Refusal::PlaysAnotherSection { person: p, section } => {
                tr!(self, "relay.rf_other_section", person = person(*p), section = sec(section))
            }
            Refusal::HasPlayed { person: p, section } => {
                tr!(self, "relay.rf_has_played", person = person(*p), section = sec(section))
            }
            Refusal::Barred { person: p } => tr!(self, "relay.rf_barred", person = person(*p)),
            Refusal::LineupLate { section, deadline, at } => {
                tr!(
                    self,
                    "relay.rf_lineup_late",
                    section = sec(section),
                    due = self.due(*section),
                    seconds = at - deadline
                )
            }
            Refusal::SectionClosed { section } => {
                tr!(self, "relay.rf_section_closed", section = sec(section))
            }
            Refusal::LineupMissing { side: c, section } => {
                tr!(self, "relay.rf_lineup_missing", side = side(c), section = sec(section))
            }
            Refusal::NotOnBoard { person: p } => tr!(self, "relay.rf_not_on_board", person = person(*p)),
            Refusal::AlreadyOnBoard { person: p } => tr!(self, "relay.rf_on_board", person = person(*p)),
            Refusal::NotYourTurn { to_move } => tr!(self, "relay.rf_not_your_turn", side = side(to_move)),
            Refusal::NotThisPlayersTurn { person: p, expected } => {
                tr!(self, "relay.rf_not_this_player", expected = person(*expected), person = person(*p))
            }
            Refusal::SeatVacant { side: c } => tr!(self, "relay.rf_seat_vacant", side = side(c)),
            Refusal::RequestPending { side: c } => tr!(self, "relay.rf_request_pending", side = side(c)),
            Refusal::NoRequestPending { side: c } => tr!(self, "relay.rf_no_request", side = side(c)),
            Refusal::NoSubstitutionsLeft { side: c, limit } => {
                tr!(self, "relay.rf_no_subs", side = side(c), limit)
            }
            Refusal::ReturningPlayer { person: p } => tr!(self, "relay.rf_returning", person = person(*p)),
            Refusal::NoTimeoutsLeft { side: c, limit } => {
                tr!(self, "relay.rf_no_timeouts", side = side(c), limit)
            }
            Refusal::NoOrderErrorToClaim { claimant } => {
                tr!(self, "relay.rf_no_order_error", side = side(&claimant.opponent()))
            }
            Refusal::NotInPlay => self.t("relay.rf_not_in_play").into(),
            Refusal::SectionNotComplete { section, moves, last } => {
                tr!(self, "relay.rf_section_incomplete", section = sec(section), last, moves)
            }
            Refusal::NoSectionToEnd => self.t("relay.rf_no_section_to_end").into(),
            Refusal::NoVacancy { side: c } => tr!(self, "relay.rf_no_vacancy", side = side(c)),
            Refusal::NoSubstitutionToSeat { side: c } => tr!(self, "relay.rf_no_sub_to_seat", side = side(c)),
            Refusal::AlreadySentOff { person: p } => tr!(self, "relay.rf_sent_off", person = person(*p)),
            Refusal::MovesNotAhead { moves, through } => {
                tr!(self, "relay.rf_moves_not_ahead", through, moves)
            }
            Refusal::BeyondQuota { section, last } => {
                tr!(self, "relay.rf_beyond_quota", section = sec(section), last)
            }
            Refusal::ChooseNextPlayer { side: c } => tr!(self, "relay.rf_choose_next", side = side(c)),
            Refusal::ClocksAhead { move_number, moves } => {
                tr!(self, "relay.rf_clocks_ahead", move = move_number, moves)
            }
            Refusal::ClocksBeforePlayoff { move_number, restored_to } => {
                tr!(self, "relay.rf_clocks_before_playoff", restored_to, move = move_number)
            }
            Refusal::PlayoffClocksMissing { rule, move_number } => {
                tr!(self, "relay.rf_playoff_clocks", when = self.playoff_clock(*rule), move = move_number)
            }
            Refusal::CardNotForOffence { offence, card, allowed } => {
                self.card_refusal(*offence, *card, allowed)
            }
            Refusal::NoSubstitutionToAnnul { side: c } => {
                tr!(self, "relay.rf_no_sub_to_annul", side = side(c))
            }
            Refusal::NoTimeoutRunning { side: c } => tr!(self, "relay.rf_no_timeout_running", side = side(c)),
            Refusal::TimeoutEndsBefore { side: c } => tr!(self, "relay.rf_timeout_before", side = side(c)),
            Refusal::EndNeedsSide => self.t("relay.rf_end_side").into(),
            Refusal::EndReasonMissing => self.t("relay.rf_end_reason").into(),
            Refusal::StillEligible { side: c, section, eligible } => {
                tr!(self, "relay.rf_still_eligible", side = side(c), eligible, section = sec(section))
            }
            Refusal::NoLineupDue { side: c } => tr!(self, "relay.rf_no_lineup_due", side = side(c)),
            Refusal::ResignerAtBoard { person: p } => {
                tr!(self, "relay.rf_resigner_at_board", person = person(*p))
            }
            Refusal::NotExecutingLeader { side: c, person: p, executing: Some(el) } => tr!(
                self,
                "relay.rf_not_executing",
                side = side(c),
                leader = self.executing_leader(el, person),
                person = person(*p)
            ),
            Refusal::NotExecutingLeader { side: c, executing: None, .. } => {
                tr!(self, "relay.rf_no_executing", side = side(c))
            }
            Refusal::NotTeamStaff { person: p } => tr!(self, "relay.rf_not_staff", person = person(*p)),
            Refusal::NoTimeoutTaken { side: c } => tr!(self, "relay.rf_no_timeout_taken", side = side(c)),
            Refusal::ReplayClocksMissing { move_number } => {
                tr!(self, "relay.rf_replay_clocks", move = move_number)
            }
            Refusal::WouldLeaveShort { person: p, section } => {
                tr!(self, "relay.rf_would_leave_short", person = person(*p), section = sec(section))
            }
            Refusal::Ruling { error } => tr!(self, "relay.rf_ruling", error = self.ruling_error(error)),
        }
    }

    /// When the play-off's clocks are read: at the drawn game's end, or at section 2's.
    fn playoff_clock(self, rule: PlayoffClock) -> &'static str {
        self.t(match rule {
            PlayoffClock::AtGameEnd => "relay.playoff_clock_game_end",
            PlayoffClock::AtSectionTwoEnd => "relay.playoff_clock_section_two",
        })
    }

    /// A card the offence does not allow, as the card form says it (seed 003's scale): which
    /// cards it allows.
    pub fn card_refusal(self, offence: CardOffence, card: Card, allowed: &[Card]) -> String {
        let allowed = allowed.iter().map(|c| self.card_short(*c)).collect::<Vec<_>>().join(" / ");
        tr!(
            self,
            "relay.err_card_offence",
            card = self.card_short(card),
            offence = self.offence(offence),
            allowed
        )
    }

    /// Why a relay match write was refused: every [`MatchRefusal`] in its own words.
    pub fn match_error(self, e: &MatchRefusal, w: &MatchWords) -> String {
        let t = |key: &str| self.t(key).to_string();
        match e {
            MatchRefusal::Stale { .. } => t("relay.err_stale"),
            MatchRefusal::WrongKind => t("relay.err_wrong_kind"),
            MatchRefusal::NoStart => t("relay.no_start"),
            MatchRefusal::Started => t("relay.err_started"),
            MatchRefusal::Setup(s) => self.setup_error(s),
            MatchRefusal::Relay(r) => self.relay_refusal(r, w.person),
            MatchRefusal::Behind { asked, moves } => tr!(self, "relay.err_behind", asked, moves),
            MatchRefusal::BoardPlayer { board } => tr!(self, "relay.err_board_player", board),
            MatchRefusal::BoardOrder { board } => tr!(self, "relay.err_board_order", board),
            MatchRefusal::NotChief if w.ruling => t("relay.err_not_chief_ruling"),
            MatchRefusal::NotChief => t("relay.err_not_chief"),
            MatchRefusal::ReasonRequired => t("relay.err_reason_required"),
            MatchRefusal::Withdraw(e) => self.withdraw_error(e, w.person),
            MatchRefusal::LaterRound { round } => tr!(self, "relay.err_later_round", round),
            MatchRefusal::NigiriPending => t("relay.err_nigiri_pending"),
            MatchRefusal::NoNigiri => t("relay.err_no_nigiri"),
            MatchRefusal::NigiriClosed => t("relay.err_nigiri_closed"),
            MatchRefusal::Invalid(_) => tr!(self, "err.number_range", min = 1, max = 200),
            MatchRefusal::ReplayStarted { replay } => tr!(self, "relay.err_replay_started", replay),
            MatchRefusal::TimeBackwards { last } => {
                tr!(self, "relay.err_time_backwards", last = w.zone.date_time_of(*last))
            }
            MatchRefusal::TimeOutsideMatch { start } => {
                tr!(self, "relay.err_time_outside", start = w.zone.date_time_of(*start))
            }
        }
    }

    /// Why a relay match cannot start (or be printed) yet: `match_error` for a caller with no
    /// page around it (times in the server's zone, people by their numbers).
    pub fn match_not_ready(self, e: &MatchRefusal) -> String {
        let person = |p: PersonId| tr!(self, "who.player_no", number = p);
        self.match_error(e, &MatchWords { zone: crate::machine::zone(), person: &person, ruling: false })
    }

    /// Why the two rosters cannot play a relay match.
    fn setup_error(self, e: &SetupError) -> String {
        match e {
            SetupError::Roster { side, error } => {
                tr!(self, "relay.err_roster", side = self.side_name(*side), error = self.roster_error(error))
            }
            SetupError::SharedPerson(_) => self.t("relay.err_shared_person").into(),
            SetupError::SameTeam => self.t("relay.err_same_team").into(),
            SetupError::UnknownBarred(p) => tr!(self, "relay.err_unknown_barred", person = p),
        }
    }
}

/// The catalog key of an ending (its label with the article).
pub fn ending_key(e: Ending) -> &'static str {
    match e {
        Ending::Forfeit => "relay.end_forfeit",
        Ending::Withdrawal => "relay.end_withdrawal",
        Ending::LossStoneMoved => "relay.end_loss_stone_moved",
        Ending::LossScattered => "relay.end_loss_scattered",
        Ending::LossCheating => "relay.end_loss_cheating",
        Ending::NoEligiblePlayer => "relay.end_no_eligible_player",
        Ending::DoubleLossStoneMoved => "relay.end_double_loss_stone_moved",
        Ending::DoubleLossScattered => "relay.end_double_loss_scattered",
        Ending::DoubleLossCheating => "relay.end_double_loss_cheating",
        Ending::DrawStoneMoved => "relay.end_draw_stone_moved",
        Ending::DrawScattered => "relay.end_draw_scattered",
        Ending::ReplayStoneMoved => "relay.end_replay_stone_moved",
        Ending::ReplayScattered => "relay.end_replay_scattered",
        Ending::Cycle => "relay.end_cycle",
    }
}

impl Lang {
    /// 黑方 / Black.
    pub fn side_name(self, c: Color) -> &'static str {
        match c {
            Color::Black => self.t("colour.black"),
            Color::White => self.t("colour.white"),
        }
    }

    /// An ending as a line: "Forfeit (Arts. 15.2, 23.2) against White — reason (ruled by X)".
    pub fn ending_text(self, r: &EndRecord) -> String {
        let against =
            r.side.map(|c| tr!(self, "relay.end_against", side = self.side_name(c))).unwrap_or_default();
        tr!(
            self,
            "relay.end_what",
            ending = self.t(ending_key(r.ending)),
            against,
            reason = r.reason,
            ruled_by = r.ruled_by
        )
    }

    /// How a relay match ended besides the result itself: the ruling with its article, reason
    /// and who ruled, or who confirmed the resignation (Art. 14). The match page and the printed
    /// team sheets say it alike.
    pub fn ending_note(self, m: &RelayMatch) -> Option<String> {
        if let Some(end) = m.ending() {
            return Some(self.ending_text(end));
        }
        let (p, side) = (m.resigned_by()?, m.result()?.winner?.opponent());
        let name = m.side(side).team.name_of(p).unwrap_or_default().to_string();
        Some(tr!(self, "relay.resign_what", side = self.side_name(side), person = name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::render_check::both;
    use rules::clock::ClockReading;
    use rules::rulings::{GameResult, ResultMethod, RulingError, Said};

    /// People as the tests' rosters would show them without names.
    fn id(p: PersonId) -> String {
        format!("#{p}")
    }

    /// The sentences of typed values the relay match tests (`domain::team::tests`) meet, as
    /// the match page and the record sheet word them.
    #[test]
    fn relay_values_read_in_both_languages() {
        let r =
            ClockReading { main_secs: 2400, periods: 3, period_secs: 0, period_moves: 0, overtime: false };
        let clocks = [r, ClockReading { main_secs: 2460, ..r }];
        let (en, zh) = both(|l| l.relay_effect(&Effect::ClocksRecorded { move_number: 40, clocks }, &id));
        assert!(en.contains("Clocks after move 40: Black 40:00, 3 byo-yomi left"), "{en}");
        assert!(zh.contains("第40手后计时：黑方基本时间40:00，读秒3次"), "{zh}");

        let end = [
            ClockReading { main_secs: 0, periods: 2, period_secs: 0, period_moves: 0, overtime: true },
            ClockReading { main_secs: 95, periods: 3, period_secs: 0, period_moves: 0, overtime: false },
        ];
        let started =
            Effect::PlayoffStarted { restored_to: 143, lineup_deadline: 0, clocks: end, clocks_after: 200 };
        let (en, _) = both(|l| l.relay_effect(&started, &id));
        assert!(en.contains("remaining time (Black byo-yomi, 2 left, White 1:35, 3 byo-yomi left"), "{en}");

        let missing = Refusal::PlayoffClocksMissing { rule: PlayoffClock::AtGameEnd, move_number: 200 };
        let (en, zh) = both(|l| l.relay_refusal(&missing, &id));
        assert!(en.contains("remaining time, byo-yomi included (Art. 12)"), "{en}");
        assert!(zh.contains("和棋终局时"), "{zh}");

        let later = WithdrawError::LaterEventFails {
            seq: 4,
            later: 7,
            refusal: Refusal::NoVacancy { side: Color::Black },
        };
        let (en, zh) = both(|l| l.withdraw_error(&later, &id));
        assert!(en.contains("Withdraw event 7 first"), "{en}");
        assert!(en.contains("Black has no red-carded player to replace"), "{en}");
        assert!(zh.contains("请先撤回第7条"), "{zh}");

        let card = Event::Card { person: 111, card: Card::Yellow, offence: None };
        assert_eq!(Lang::En.relay_event(&card, &id), "Yellow card to #111");
        let count = Event::Count { black_halves: 369, clocks: None };
        assert_eq!(Lang::Zh.relay_event(&count, &id), "数子：黑方184½子");

        let ruling = Refusal::ruling(&RulingError::Zero { index: 0 });
        let (en, zh) = both(|l| l.relay_refusal(&ruling, &id));
        assert_eq!(zh, "判罚无法执行：第1项：罚0子不是处罚");
        assert!(en.starts_with("The ruling cannot be applied: ruling #1"), "{en}");

        let result = GameResult {
            winner: Some(Color::White),
            method: ResultMethod::Count {
                outcome: rules::outcome::Outcome { winner: Some(Color::White), margin_q: 8 },
                black_halves: 392,
                penalty_black: 18,
                penalty_white: 4,
            },
        };
        let said = Said::Counted { black_halves: 392, penalties: Some([18, 4]), result };
        let (en, zh) = both(|l| l.relay_effect(&Effect::GameOver { result, said: said.clone() }, &id));
        assert!(en.contains("penalty stones Black 18, White 4"), "{en}");
        assert!(zh.contains("罚子：黑18子、白4子"), "{zh}");
    }

    /// Seed 003 Arts. 14 and 10.1: the refusal of a resignation names the executing leader
    /// with the basis of the role; Arts. 18.3, 19, 24.4 and the knockout-draw decision read in
    /// both languages.
    #[test]
    fn executing_leader_void_stones_and_replays_are_worded() {
        let coach = ExecutingLeader { person: 201, basis: LeaderBasis::Coach };
        let r = Refusal::NotExecutingLeader { side: Color::White, person: 200, executing: Some(coach) };
        let (en, zh) = both(|l| l.relay_refusal(&r, &id));
        assert_eq!(
            en,
            "Only White's executing leader confirms its resignation (Arts. 14, 10.1): #201 (Coach), not #200"
        );
        assert_eq!(zh, "白方认输只能由执行领队确认（第14条、第10条第1款）：应为#201（教练），而非#200");
        let v = Effect::MoveVoid {
            number: 51,
            side: Color::Black,
            player: 111,
            offence: VoidOffence::KoWithoutThreat,
        };
        let (en, zh) = both(|l| l.relay_effect(&v, &id));
        assert!(
            en.contains("Move 51 of Black by #111 is void (ko retaken without a threat (Art. 18.3))"),
            "{en}"
        );
        assert!(zh.contains("第51手黑方#111着手无效（劫争未找劫材而提劫（第18条第3款））"), "{zh}");
        let short = Refusal::WouldLeaveShort { person: 113, section: Section::Three };
        let (en, _) = both(|l| l.relay_refusal(&short, &id));
        assert!(en.contains("would be left without two players (Art. 24.4)"), "{en}");
        let (en, zh) = both(|l| l.relay_effect(&Effect::KnockoutDrawReplayed { early: true }, &id));
        assert!(en.contains("before move 144") && zh.contains("第144手前"), "{en} / {zh}");
    }

    /// Every reason a match cannot be set up is worded (none falls back to `Display`).
    #[test]
    fn setup_errors_read_in_both_languages() {
        use crate::domain::team::roster::RosterError;
        for e in [
            SetupError::Roster { side: Color::White, error: RosterError::EmptyName(7) },
            SetupError::SharedPerson(3),
            SetupError::SameTeam,
            SetupError::UnknownBarred(112),
        ] {
            both(|l| l.match_not_ready(&MatchRefusal::Setup(e.clone())));
        }
        assert!(Lang::Zh
            .match_not_ready(&MatchRefusal::Setup(SetupError::UnknownBarred(112)))
            .contains("112号"));
    }

    /// Every `MatchRefusal` has its own wording in both languages: none falls back to another's
    /// text or to `Debug` (the match page, the print route and the CLI all show them).
    #[test]
    fn every_match_error_has_its_own_words() {
        let all = [
            MatchRefusal::Stale { current: 3 },
            MatchRefusal::WrongKind,
            MatchRefusal::NoStart,
            MatchRefusal::Started,
            MatchRefusal::Setup(SetupError::SameTeam),
            MatchRefusal::Relay(Refusal::MatchOver),
            MatchRefusal::Behind { asked: 4, moves: 9 },
            MatchRefusal::BoardPlayer { board: 2 },
            MatchRefusal::BoardOrder { board: 3 },
            MatchRefusal::NotChief,
            MatchRefusal::ReasonRequired,
            MatchRefusal::Withdraw(WithdrawError::UnknownEvent { seq: 5 }),
            MatchRefusal::LaterRound { round: 2 },
            MatchRefusal::NigiriPending,
            MatchRefusal::NoNigiri,
            MatchRefusal::NigiriClosed,
            MatchRefusal::Invalid("grab".into()),
            MatchRefusal::ReplayStarted { replay: 8 },
            MatchRefusal::TimeBackwards { last: 1_796_000_000 },
            MatchRefusal::TimeOutsideMatch { start: 1_796_000_000 },
        ];
        let mut seen = std::collections::HashSet::new();
        for e in &all {
            let (en, zh) = both(|l| l.match_not_ready(e));
            assert!(!en.contains("MatchRefusal") && !en.contains("{"), "{e:?}: {en}");
            assert!(
                seen.insert(en.clone()) && seen.insert(zh.clone()),
                "{e:?} shares its words: {en} / {zh}"
            );
        }
        let ruling = MatchWords { zone: crate::machine::zone(), person: &id, ruling: true };
        assert_ne!(
            Lang::En.match_error(&MatchRefusal::NotChief, &ruling),
            Lang::En.match_not_ready(&MatchRefusal::NotChief)
        );
    }

    /// Sides and sections read as the catalog has them (the sentences above build on them).
    #[test]
    fn sides_and_sections_in_both_languages() {
        assert_eq!((Lang::En.side(Color::Black), Lang::Zh.side(Color::White)), ("Black", "白方"));
        let (en, zh) = both(|l| l.section(Section::Two).into());
        assert_eq!((en.as_str(), zh.as_str()), ("section 2 (moves 73–143)", "第2节（第73至143手）"));
        assert_eq!(
            Lang::En.relay_refusal(&Refusal::SectionClosed { section: Section::Three }, &id),
            "section 3 (move 144 to the end) has started or is over: its line-up can no longer change"
        );
    }
}
