//! Every typed refusal of the office's writes in the reader's words: its status, its message
//! and the field it belongs beside ([`Refused`]). The pages that refuse show it beside the
//! entry as typed (`Refused::keep`); a fault of the database under a refusal stays an error
//! (the 404 page for a thing that is not there).

use super::error::{AppError, Refused};
use super::i18n::Lang;
use super::views::relay_match::person_of;
use super::views::results::result_message;
use super::views::text::Names;
use crate::db::prizes::PrizeError;
use crate::db::results::SheetError;
use crate::db::rounds::RoundError;
use crate::db::team_matches::MatchError;
use crate::db::team_matches::PairError;
use crate::db::teams::TeamError;
use crate::db::DbError;
use crate::domain::event_time::EventZone;
use crate::domain::rounds::{EditError, PlanError};
use crate::domain::team::event::{TeamSettingsError, MAX_BOARDS};
use crate::domain::team::matches::{MatchRefusal, PairRefusal};
use crate::domain::team::roster::RosterError;
use crate::domain::team::PersonId;
use crate::i18n::relay::MatchWords;
use crate::i18n::tr;
use actix_web::http::StatusCode;
use std::collections::HashMap;

/// A typed refusal worded for the page that shows it.
pub trait Refusal {
    /// What its words need besides the language (the entrants' names, the event's zone…).
    type Words;
    fn refused(&self, lang: Lang, words: &Self::Words) -> Result<Refused, AppError>;
}

const CONFLICT: StatusCode = StatusCode::CONFLICT;
const UNPROCESSABLE: StatusCode = StatusCode::UNPROCESSABLE_ENTITY;
const BAD_REQUEST: StatusCode = StatusCode::BAD_REQUEST;

/// Why no round can be planned (the draws of individual and of team rounds alike).
pub fn plan_refusal(lang: Lang, p: &PlanError, too_few: &str) -> Refused {
    let words = match p {
        PlanError::TooFew => lang.t(too_few).to_string(),
        PlanError::RoundRobinOver { rounds } => tr!(lang, "round.err_rr_over", rounds),
        PlanError::KnockoutUndecided(v) => {
            let list = v.iter().map(u32::to_string).collect::<Vec<_>>().join(", ");
            tr!(lang, "round.err_ko_undecided", matches = list)
        }
        PlanError::KnockoutOver => lang.t("round.err_ko_over").to_string(),
        PlanError::NoPlan => lang.t("round.err_no_plan").to_string(),
        PlanError::Unsupported => lang.t("round.err_unsupported").to_string(),
        PlanError::Pairing(e) => tr!(lang, "round.err_pairing", error = e.to_string()),
    };
    Refused::new(UNPROCESSABLE, words)
}

/// A refused change of a round: its pairing, publication, nigiri or attendance.
impl Refusal for RoundError {
    type Words = Names;
    fn refused(&self, lang: Lang, names: &Names) -> Result<Refused, AppError> {
        let c = |key: &str| Refused::new(CONFLICT, lang.t(key));
        let b = |words: String, field: &'static str| Refused::new(BAD_REQUEST, words).beside(field);
        Ok(match self {
            RoundError::Stale { .. } => c("round.err_stale"),
            RoundError::Changed => c("round.err_changed_while_pairing"),
            RoundError::Published => c("round.err_published"),
            RoundError::NotPublished => c("round.err_not_published"),
            RoundError::HasResults => c("round.err_has_results"),
            RoundError::SheetStarted => c("round.err_sheet_started"),
            RoundError::PreviousDraft { number } => {
                Refused::new(CONFLICT, tr!(lang, "round.err_previous_draft", round = number))
            }
            RoundError::NotNext { next } => {
                Refused::new(CONFLICT, tr!(lang, "round.err_not_next", round = next))
            }
            RoundError::BeyondRounds { rounds } => {
                Refused::new(CONFLICT, tr!(lang, "round.err_beyond", rounds))
            }
            RoundError::LaterRound { number } => {
                Refused::new(CONFLICT, tr!(lang, "round.err_later", round = number))
            }
            RoundError::NoNigiri => c("round.err_no_nigiri"),
            RoundError::NigiriDone => c("round.err_nigiri_done"),
            RoundError::Invalid(_) => b(lang.t("round.err_grab").into(), "grab"),
            RoundError::OpenGames(_) => c("round.confirm_banner"),
            RoundError::Plan(p) => plan_refusal(lang, p, "round.err_too_few"),
            RoundError::Pairing(e) => {
                Refused::new(UNPROCESSABLE, tr!(lang, "round.err_pairing", error = e.to_string()))
            }
            RoundError::Edit(e) => match e {
                EditError::NotInRound(id) => {
                    b(tr!(lang, "round.err_not_in_round", name = names.name(*id)), "swap_a")
                }
                EditError::SamePlayer => b(lang.t("round.err_same_player").into(), "swap_b"),
                EditError::NoSuchTable(t) => b(tr!(lang, "round.err_no_table", table = t), "edit_table"),
                EditError::PairedTwice(id) => {
                    b(tr!(lang, "round.err_paired_twice", name = names.name(*id)), "edit_black")
                }
                EditError::Handicap => b(tr!(lang, "err.number_range", min = 0, max = 9), "edit_handicap"),
            },
            RoundError::Db(DbError::NotFound) => return Err(AppError::not_found(lang)),
            RoundError::Db(e) => return Err(AppError::internal(lang, e)),
        })
    }
}

/// A refused write of a game's sheet or a round's lateness sheet. A stale sheet's page adds the
/// entry it met (`conflict_text`); the lateness sheet words a round changed meanwhile itself.
impl Refusal for SheetError {
    type Words = ();
    fn refused(&self, lang: Lang, _: &()) -> Result<Refused, AppError> {
        let r = |status: StatusCode, key: &str| Refused::new(status, lang.t(key));
        Ok(match self {
            SheetError::Stale(_) => r(CONFLICT, "r.err_stale"),
            SheetError::StaleRound { .. } => r(CONFLICT, "late.err_record_changed"),
            SheetError::ColoursChanged(_) => r(CONFLICT, "r.err_colours_changed"),
            SheetError::NoProposal => r(CONFLICT, "r.err_no_proposal"),
            SheetError::Locked => r(StatusCode::FORBIDDEN, "r.err_locked"),
            SheetError::NotChief => r(StatusCode::FORBIDDEN, "r.err_not_chief"),
            SheetError::ReasonRequired => r(BAD_REQUEST, "r.err_reason_required"),
            SheetError::Invalid(e) => Refused::new(BAD_REQUEST, result_message(lang, e)).beside(e.field()),
            SheetError::NothingToConfirm => r(BAD_REQUEST, "r.err_nothing_to_confirm"),
            SheetError::ReplayHasResult { replay_game } => {
                Refused::new(BAD_REQUEST, tr!(lang, "r.err_replay_has_result", game = replay_game))
            }
            SheetError::NoLateness => r(BAD_REQUEST, "late.err_nothing"),
            SheetError::NotAReplay => r(BAD_REQUEST, "r.err_not_replay"),
            SheetError::Db(DbError::NotFound) => return Err(AppError::not_found(lang)),
            SheetError::Db(e) => return Err(AppError::internal(lang, e)),
        })
    }
}

/// A team setting the rules between fields refuse, beside its field.
pub fn settings_error(lang: Lang, e: TeamSettingsError) -> String {
    match e {
        TeamSettingsError::Boards => tr!(lang, "err.number_range", min = 1, max = MAX_BOARDS),
        TeamSettingsError::MainBoardRule => lang.t("team.err_main_board_rule").to_string(),
        TeamSettingsError::MainBoardOutOfRange => lang.t("team.err_main_board_range").to_string(),
        TeamSettingsError::NigiriRelayOnly => lang.t("team.err_nigiri_relay_only").to_string(),
    }
}

/// A roster the rules refuse, beside the players box.
fn roster_error(lang: Lang, e: &RosterError) -> String {
    match e {
        RosterError::DuplicatePosition(n) => tr!(lang, "team.err_dup_position", position = n),
        RosterError::ZeroPosition(_) => tr!(lang, "err.number_range", min = 1, max = 99),
        RosterError::EmptyName(_) => lang.t("team.err_required").to_string(),
        other => lang.roster_error(other),
    }
}

/// A refused write of a team, its roster or the team settings.
impl Refusal for TeamError {
    type Words = ();
    fn refused(&self, lang: Lang, _: &()) -> Result<Refused, AppError> {
        let c = |key: &str| Refused::new(CONFLICT, lang.t(key));
        Ok(match self {
            TeamError::Stale { .. } => c("team.err_stale"),
            TeamError::SettingsFrozen => c("team.err_settings_frozen"),
            TeamError::InMatches => c("team.err_in_matches"),
            TeamError::NameTaken => c("team.err_name_taken").beside("name"),
            TeamError::Settings(se) => {
                Refused::new(BAD_REQUEST, settings_error(lang, *se)).beside(se.field())
            }
            TeamError::CaptainPosition(n) => {
                Refused::new(BAD_REQUEST, tr!(lang, "team.err_captain", position = n)).beside("captain")
            }
            TeamError::Roster(e) => Refused::new(BAD_REQUEST, roster_error(lang, e)).beside("players"),
            TeamError::Db(DbError::NotFound) => return Err(AppError::not_found(lang)),
            e => return Err(AppError::internal(lang, format!("{e:?}"))),
        })
    }
}

/// A team round that cannot be paired or deleted.
impl Refusal for PairError {
    type Words = ();
    fn refused(&self, lang: Lang, _: &()) -> Result<Refused, AppError> {
        let c = |words: String| Refused::new(CONFLICT, words);
        let e = match self {
            PairError::Refused(e) => e,
            PairError::Db(DbError::NotFound) => return Err(AppError::not_found(lang)),
            PairError::Db(e) => return Err(AppError::internal(lang, e)),
        };
        Ok(match e {
            PairRefusal::NotTeamEvent => c(lang.t("team.err_not_team_event").into()),
            PairRefusal::NotNext { next } => c(tr!(lang, "round.err_not_next", round = next)),
            PairRefusal::BeyondRounds { rounds } => c(tr!(lang, "round.err_beyond", rounds)),
            PairRefusal::Undecided { round } => c(tr!(lang, "team.err_undecided", round)),
            PairRefusal::NotLast { last } => c(tr!(lang, "team.err_not_last", round = last)),
            PairRefusal::HasResults => c(lang.t("team.err_round_has_results").into()),
            PairRefusal::ShortTeams { need, teams } => {
                let list = teams
                    .iter()
                    .map(|(name, n)| tr!(lang, "team.short_item", team = name, count = n))
                    .collect::<Vec<_>>()
                    .join(lang.t("team.list_sep"));
                Refused::new(UNPROCESSABLE, tr!(lang, "team.err_short_teams", teams = list, need))
            }
            PairRefusal::Plan(p) => plan_refusal(lang, p, "team.err_too_few"),
        })
    }
}

/// What a relay match's refusals are worded with: the event's zone, the form refused (its
/// words go beside it; a ruling that ends the match is told as one) and the rosters' names.
pub struct MatchNaming {
    pub zone: EventZone,
    pub kind: &'static str,
    pub names: HashMap<PersonId, String>,
}

/// A refused match write: a conflict with the match's state, a malformed form, a write only
/// the chief arbiter may make, or an event the rules refuse (the catalog words each,
/// `Lang::match_error`).
impl Refusal for MatchError {
    type Words = MatchNaming;
    fn refused(&self, lang: Lang, n: &MatchNaming) -> Result<Refused, AppError> {
        let e = match self {
            MatchError::Refused(e) => e,
            MatchError::Db(DbError::NotFound) => return Err(AppError::not_found(lang)),
            MatchError::Db(e) => return Err(AppError::internal(lang, e)),
        };
        let status = match e {
            MatchRefusal::Stale { .. }
            | MatchRefusal::NoStart
            | MatchRefusal::Started
            | MatchRefusal::Setup(_)
            | MatchRefusal::ReplayStarted { .. }
            | MatchRefusal::NigiriPending
            | MatchRefusal::NoNigiri
            | MatchRefusal::NigiriClosed
            | MatchRefusal::LaterRound { .. } => CONFLICT,
            MatchRefusal::WrongKind | MatchRefusal::Invalid(_) | MatchRefusal::ReasonRequired => BAD_REQUEST,
            MatchRefusal::NotChief => StatusCode::FORBIDDEN,
            MatchRefusal::Behind { .. }
            | MatchRefusal::BoardPlayer { .. }
            | MatchRefusal::BoardOrder { .. }
            | MatchRefusal::TimeBackwards { .. }
            | MatchRefusal::TimeOutsideMatch { .. }
            | MatchRefusal::Withdraw(_)
            | MatchRefusal::Relay(_) => UNPROCESSABLE,
        };
        let person = person_of(lang, &n.names);
        let words = MatchWords { zone: n.zone, person: &person, ruling: n.kind == "end" };
        Ok(Refused::new(status, lang.match_error(e, &words)).beside(n.kind))
    }
}

/// A prize write's refusal, worded.
/// Ratings after the event not computed: a stale page, rounds still to play, or a time
/// control the EGF does not rate.
impl Refusal for crate::office::ratings::ComputeError {
    type Words = ();
    fn refused(&self, lang: Lang, _: &()) -> Result<Refused, AppError> {
        use crate::db::rating_changes::RatingError;
        use crate::office::ratings::ComputeError;
        Ok(match self {
            ComputeError::Rating(RatingError::Stale { .. }) => {
                Refused::new(CONFLICT, lang.t("gor.err_stale"))
            }
            ComputeError::Rating(RatingError::Unfinished) => {
                Refused::new(CONFLICT, lang.t("gor.err_unfinished"))
            }
            ComputeError::NotRated(r) => Refused::new(UNPROCESSABLE, lang.egf_refusal(r)),
            ComputeError::Rating(RatingError::Db(DbError::NotFound)) => {
                return Err(AppError::not_found(lang))
            }
            ComputeError::Rating(RatingError::Db(e)) => return Err(AppError::internal(lang, e)),
        })
    }
}

impl Refusal for PrizeError {
    type Words = ();
    fn refused(&self, lang: Lang, _: &()) -> Result<Refused, AppError> {
        Ok(match self {
            PrizeError::Stale { .. } => Refused::new(StatusCode::CONFLICT, lang.t("prize.err_stale")),
            PrizeError::Published => Refused::new(StatusCode::CONFLICT, lang.t("prize.err_published")),
            PrizeError::Db(DbError::NotFound) => return Err(AppError::not_found(lang)),
            PrizeError::Db(e) => return Err(AppError::internal(lang, e)),
        })
    }
}
