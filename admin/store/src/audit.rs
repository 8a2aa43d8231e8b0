//! The audit trail: one row per write, in the same transaction as the write.

use super::schema::{audit, tournaments};
use super::Conn;
use super::{now, Actor, DbError};
use diesel::prelude::*;
use serde::Serialize;
use std::sync::atomic::{AtomicU64, Ordering};

/// The kinds of audited change: each variant with its stored `action` and `entity` strings
/// (the database keeps those, so rows written before this type read the same), the stable
/// code the audit page's kind filter uses, and the catalog keys of its label and sentence.
macro_rules! audit_actions {
    ($($(#[$doc:meta])* $v:ident = ($action:literal, $entity:literal, $code:literal, $label:literal, $sentence:literal),)*) => {
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum AuditAction {
            $($(#[$doc])* $v,)*
        }

        impl AuditAction {
            /// Every kind, in the order the kind filter lists them.
            pub const ALL: &'static [AuditAction] = &[$(AuditAction::$v,)*];

            /// The stored `action` column.
            pub fn action(self) -> &'static str {
                match self { $(AuditAction::$v => $action,)* }
            }
            /// The stored `entity` column: what kind of thing `entity_id` names.
            pub fn entity(self) -> &'static str {
                match self { $(AuditAction::$v => $entity,)* }
            }
            /// The code of the kind filter (`?kind=`).
            pub fn code(self) -> &'static str {
                match self { $(AuditAction::$v => $code,)* }
            }
            /// The catalog key of the kind's short label (the filter's choices).
            pub fn label_key(self) -> &'static str {
                match self { $(AuditAction::$v => $label,)* }
            }
            /// The catalog key of the sentence: `{0}` the actor, `{1}` the subject.
            pub fn sentence_key(self) -> &'static str {
                match self { $(AuditAction::$v => $sentence,)* }
            }
        }
    };
}

audit_actions! {
    TournamentCreate = ("create", "tournament", "tournament_create", "audit.kind.tournament_create", "audit.say.tournament_create"),
    TournamentUpdate = ("update", "tournament", "tournament_update", "audit.kind.tournament_update", "audit.say.tournament_update"),
    TournamentDelete = ("delete", "tournament", "tournament_delete", "audit.kind.tournament_delete", "audit.say.tournament_delete"),
    /// A list of entrants (CSV or OpenGotha) imported into the event.
    TournamentImport = ("import", "tournament", "tournament_import", "audit.kind.tournament_import", "audit.say.tournament_import"),
    GroupCreate = ("create", "group", "group_create", "audit.kind.group_create", "audit.say.group_create"),
    GroupUpdate = ("update", "group", "group_update", "audit.kind.group_update", "audit.say.group_update"),
    /// The settings every group of an event shares (name, venue, dates, zone), written to
    /// this group because another group's settings changed them.
    SharedSettings = ("shared", "tournament", "shared_settings", "audit.kind.shared_settings", "audit.say.shared_settings"),
    /// An entrant moved to another group of the event (before round 1), in both groups' trails.
    /// A rating list imported into the tournament (`entity_id` the list's), and an entrant's
    /// rank, rating, unit or id taken from one.
    RatingListImport = ("import", "rating_list", "rating_list_import", "audit.kind.rating_list_import", "audit.say.rating_list_import"),
    EntrantFromList = ("from_list", "entrant", "entrant_from_list", "audit.kind.entrant_from_list", "audit.say.entrant_from_list"),
    EntrantMove = ("move", "entrant", "entrant_move", "audit.kind.entrant_move", "audit.say.entrant_move"),
    StaffSet = ("staff_set", "staff", "staff_set", "audit.kind.staff_set", "audit.say.staff_set"),
    StaffRemove = ("staff_remove", "staff", "staff_remove", "audit.kind.staff_remove", "audit.say.staff_remove"),
    ChiefArbiter = ("chief_arbiter", "staff", "chief_arbiter", "audit.kind.chief_arbiter", "audit.say.chief_arbiter"),
    EntrantCreate = ("create", "entrant", "entrant_create", "audit.kind.entrant_create", "audit.say.entrant_create"),
    EntrantUpdate = ("update", "entrant", "entrant_update", "audit.kind.entrant_update", "audit.say.entrant_update"),
    EntrantWithdraw = ("withdraw", "entrant", "entrant_withdraw", "audit.kind.entrant_withdraw", "audit.say.entrant_withdraw"),
    EntrantReinstate = ("reinstate", "entrant", "entrant_reinstate", "audit.kind.entrant_reinstate", "audit.say.entrant_reinstate"),
    EntrantDelete = ("delete", "entrant", "entrant_delete", "audit.kind.entrant_delete", "audit.say.entrant_delete"),
    EntrantAbsent = ("absent", "entrant", "entrant_absent", "audit.kind.entrant_absent", "audit.say.entrant_absent"),
    EntrantPresent = ("present", "entrant", "entrant_present", "audit.kind.entrant_present", "audit.say.entrant_present"),
    /// Check-in (签到) for a round, at the desk or on the entrant's phone, and its undoing.
    EntrantCheckIn = ("check_in", "entrant", "entrant_check_in", "audit.kind.entrant_check_in", "audit.say.entrant_check_in"),
    EntrantCheckInUndo = ("check_in_undo", "entrant", "entrant_check_in_undo", "audit.kind.entrant_check_in_undo", "audit.say.entrant_check_in_undo"),
    /// A round's check-in deadline set, and its closing (`entity_id` is the round's number).
    CheckInDeadline = ("deadline", "check_in_round", "check_in_deadline", "audit.kind.check_in_deadline", "audit.say.check_in_deadline"),
    CheckInClose = ("close", "check_in_round", "check_in_close", "audit.kind.check_in_close", "audit.say.check_in_close"),
    /// A new self check-in code for the event (the code itself is not recorded).
    CheckInCode = ("check_in_code", "tournament", "check_in_code", "audit.kind.check_in_code", "audit.say.check_in_code"),
    EntrantFixedTable = ("fixed_table", "entrant", "entrant_fixed_table", "audit.kind.entrant_fixed_table", "audit.say.entrant_fixed_table"),
    RoundPair = ("pair", "round", "round_pair", "audit.kind.round_pair", "audit.say.round_pair"),
    RoundRepair = ("repair", "round", "round_repair", "audit.kind.round_repair", "audit.say.round_repair"),
    RoundSwap = ("swap", "round", "round_swap", "audit.kind.round_swap", "audit.say.round_swap"),
    RoundEdit = ("edit", "round", "round_edit", "audit.kind.round_edit", "audit.say.round_edit"),
    RoundDelete = ("delete", "round", "round_delete", "audit.kind.round_delete", "audit.say.round_delete"),
    RoundPublish = ("publish", "round", "round_publish", "audit.kind.round_publish", "audit.say.round_publish"),
    RoundUnpublish = ("unpublish", "round", "round_unpublish", "audit.kind.round_unpublish", "audit.say.round_unpublish"),
    /// Who arrived for a round (`entity_id` is the round's number).
    ArrivalsRecord = ("record", "arrivals", "arrivals_record", "audit.kind.arrivals_record", "audit.say.arrivals_record"),
    GameNigiri = ("nigiri", "game", "game_nigiri", "audit.kind.game_nigiri", "audit.say.game_nigiri"),
    GameRemoteNigiri = ("remote_nigiri", "game", "game_remote_nigiri", "audit.kind.game_remote_nigiri", "audit.say.game_remote_nigiri"),
    /// The lot that decides which of two double losers counts as the nominal winner.
    GameDoubleLossLot = ("double_loss_lot", "game", "game_double_loss_lot", "audit.kind.game_double_loss_lot", "audit.say.game_double_loss_lot"),
    GamePlayedColours = ("played_colours", "game", "game_played_colours", "audit.kind.game_played_colours", "audit.say.game_played_colours"),
    ResultEnter = ("enter", "result", "result_enter", "audit.kind.result_enter", "audit.say.result_enter"),
    ResultClear = ("clear", "result", "result_clear", "audit.kind.result_clear", "audit.say.result_clear"),
    ResultCorrect = ("correct", "result", "result_correct", "audit.kind.result_correct", "audit.say.result_correct"),
    ResultConfirm = ("confirm", "result", "result_confirm", "audit.kind.result_confirm", "audit.say.result_confirm"),
    ResultLock = ("lock", "result", "result_lock", "audit.kind.result_lock", "audit.say.result_lock"),
    RulingAdd = ("add", "ruling", "ruling_add", "audit.kind.ruling_add", "audit.say.ruling_add"),
    RulingLateness = ("lateness", "ruling", "ruling_lateness", "audit.kind.ruling_lateness", "audit.say.ruling_lateness"),
    RulingDelete = ("delete", "ruling", "ruling_delete", "audit.kind.ruling_delete", "audit.say.ruling_delete"),
    /// A plain arbiter's draw, replay or double loss, for the chief arbiter (seed 000 Arts. 17.5, 17.6).
    RulingPropose = ("propose", "ruling", "ruling_propose", "audit.kind.ruling_propose", "audit.say.ruling_propose"),
    RulingConfirm = ("confirm", "ruling", "ruling_confirm", "audit.kind.ruling_confirm", "audit.say.ruling_confirm"),
    RulingReject = ("reject", "ruling", "ruling_reject", "audit.kind.ruling_reject", "audit.say.ruling_reject"),
    SgfAttach = ("attach", "sgf", "sgf_attach", "audit.kind.sgf_attach", "audit.say.sgf_attach"),
    /// The dead stones marked on a game's final position, with the count they give.
    CountDead = ("dead", "game_count", "count_dead", "cnt.audit_kind_dead", "cnt.audit_say_dead"),
    /// A player's or the referee's confirmation of the count from the position (`reason` says whose).
    CountConfirm = ("confirm", "game_count", "count_confirm", "cnt.audit_kind_confirm", "cnt.audit_say_confirm"),
    /// The dead stones marked on a relay game's final position (`entity_id` the match's).
    RelayCountDead = ("relay_count_dead", "team_match", "relay_count_dead", "rcnt.audit_kind_dead", "rcnt.audit_say_dead"),
    /// A side's executing leader's or the referee's confirmation of a relay game's count.
    RelayCountConfirm = ("relay_count_confirm", "team_match", "relay_count_confirm", "rcnt.audit_kind_confirm", "rcnt.audit_say_confirm"),
    ReplayStart = ("record", "replay_start", "replay_start", "audit.kind.replay_start", "audit.say.replay_start"),
    TeamSettingsUpdate = ("update", "team_settings", "team_settings_update", "audit.kind.team_settings_update", "audit.say.team_settings_update"),
    TeamCreate = ("create", "team", "team_create", "audit.kind.team_create", "audit.say.team_create"),
    TeamUpdate = ("update", "team", "team_update", "audit.kind.team_update", "audit.say.team_update"),
    TeamDelete = ("delete", "team", "team_delete", "audit.kind.team_delete", "audit.say.team_delete"),
    /// A team round paired (`entity_id` is the round's number).
    TeamRoundPair = ("pair", "team_round", "team_round_pair", "audit.kind.team_round_pair", "audit.say.team_round_pair"),
    TeamRoundDelete = ("delete", "team_round", "team_round_delete", "audit.kind.team_round_delete", "audit.say.team_round_delete"),
    DoubleLossLot = ("double_loss_lot", "team_match", "double_loss_lot", "audit.kind.double_loss_lot", "audit.say.double_loss_lot"),
    RelayStart = ("relay_start", "team_match", "relay_start", "audit.kind.relay_start", "audit.say.relay_start"),
    RelayEvent = ("relay_event", "team_match", "relay_event", "audit.kind.relay_event", "audit.say.relay_event"),
    RelayWithdraw = ("relay_withdraw", "team_match", "relay_withdraw", "audit.kind.relay_withdraw", "audit.say.relay_withdraw"),
    LeadersNigiri = ("leaders_nigiri", "team_match", "leaders_nigiri", "audit.kind.leaders_nigiri", "audit.say.leaders_nigiri"),
    RemoteLeadersNigiri = ("remote_leaders_nigiri", "team_match", "remote_leaders_nigiri", "audit.kind.remote_leaders_nigiri", "audit.say.remote_leaders_nigiri"),
    BoardResults = ("board_results", "team_match", "board_results", "audit.kind.board_results", "audit.say.board_results"),
    /// The prizes' rules, certificate template and organizer line (`entity_id` is the event's).
    PrizeSettingsUpdate = ("update", "prize_settings", "prize_settings_update", "audit.kind.prize_settings_update", "audit.say.prize_settings_update"),
    PrizePlaces = ("places", "prizes", "prize_places", "audit.kind.prize_places", "audit.say.prize_places"),
    PrizeAdd = ("add", "prizes", "prize_add", "audit.kind.prize_add", "audit.say.prize_add"),
    PrizeDelete = ("delete", "prizes", "prize_delete", "audit.kind.prize_delete", "audit.say.prize_delete"),
    PrizeRename = ("rename", "prizes", "prize_rename", "audit.kind.prize_rename", "audit.say.prize_rename"),
    PrizeMove = ("move", "prizes", "prize_move", "audit.kind.prize_move", "audit.say.prize_move"),
    PrizesPublish = ("publish", "prizes", "prizes_publish", "audit.kind.prizes_publish", "audit.say.prizes_publish"),
    PrizesUnpublish = ("unpublish", "prizes", "prizes_unpublish", "audit.kind.prizes_unpublish", "audit.say.prizes_unpublish"),
    /// Online registration (网上报名): the event's settings (`entity_id` the event's), a
    /// registration sent or sent again from the public form, and the organizer's decisions.
    RegistrationSettings = ("settings", "registration", "registration_settings", "audit.kind.registration_settings", "audit.say.registration_settings"),
    RegistrationSubmit = ("submit", "registration", "registration_submit", "audit.kind.registration_submit", "audit.say.registration_submit"),
    RegistrationResubmit = ("resubmit", "registration", "registration_resubmit", "audit.kind.registration_resubmit", "audit.say.registration_resubmit"),
    RegistrationAccept = ("accept", "registration", "registration_accept", "audit.kind.registration_accept", "audit.say.registration_accept"),
    RegistrationReject = ("reject", "registration", "registration_reject", "audit.kind.registration_reject", "audit.say.registration_reject"),
    RegistrationChange = ("change", "registration", "registration_change", "audit.kind.registration_change", "audit.say.registration_change"),
    /// Registrations kept past the organizer's retention deleted (their count in `after`).
    RegistrationsPurge = ("purge", "tournament", "registrations_purge", "audit.kind.registrations_purge", "audit.say.registrations_purge"),
    /// Ratings after the event (EGF GoR) computed, replacing any computed before.
    RatingsCompute = ("ratings", "tournament", "ratings_compute", "audit.kind.ratings_compute", "audit.say.ratings_compute"),
    /// Display screens (大屏) of an event (`entity_id` the screen's), in every group's trail.
    ScreenCreate = ("create", "screen", "screen_create", "audit.kind.screen_create", "audit.say.screen_create"),
    ScreenUpdate = ("update", "screen", "screen_update", "audit.kind.screen_update", "audit.say.screen_update"),
    ScreenRevoke = ("revoke", "screen", "screen_revoke", "audit.kind.screen_revoke", "audit.say.screen_revoke"),
    ScreenReissue = ("reissue", "screen", "screen_reissue", "audit.kind.screen_reissue", "audit.say.screen_reissue"),
    /// A team's research room (研究室, seed 003 Art. 10.1): an address issued (a new one replaces
    /// the old) or revoked (`entity_id` the team's).
    RoomIssue = ("room_issue", "team", "room_issue", "audit.kind.room_issue", "audit.say.room_issue"),
    RoomRevoke = ("room_revoke", "team", "room_revoke", "audit.kind.room_revoke", "audit.say.room_revoke"),
    /// A move entered at the board, and the last one undone by its enterer (`entity_id` the
    /// game's; the move in `after` / `before`); the public board's delay set (the tournament's).
    MoveEnter = ("enter", "game_move", "mv_enter", "audit.kind.mv_enter", "audit.say.mv_enter"),
    MoveUndo = ("undo", "game_move", "mv_undo", "audit.kind.mv_undo", "audit.say.mv_undo"),
    MoveDelay = ("delay", "tournament", "mv_delay", "audit.kind.mv_delay", "audit.say.mv_delay"),
    /// The player registry (`entity_id` the person's; no tournament): two persons merged into
    /// one, and a person deleted on request (their past results keep the name only).
    PersonMerge = ("merge", "person", "person_merge", "audit.kind.person_merge", "audit.say.person_merge"),
    PersonErase = ("erase", "person", "person_erase", "audit.kind.person_erase", "audit.say.person_erase"),
    /// A person's own details corrected by an organizer (names, birth date, sex, unit, ids,
    /// contact); the audit keeps the names only.
    PersonEdit = ("edit", "person", "person_edit", "audit.kind.person_edit", "audit.say.person_edit"),
    /// Pairings that must not happen (回避): a group listed, changed or removed (`entity_id` the group's).
    ForbiddenCreate = ("create", "forbidden_pair", "forbidden_create", "audit.kind.forbidden_create", "audit.say.forbidden_create"),
    ForbiddenUpdate = ("update", "forbidden_pair", "forbidden_update", "audit.kind.forbidden_update", "audit.say.forbidden_update"),
    ForbiddenDelete = ("delete", "forbidden_pair", "forbidden_delete", "audit.kind.forbidden_delete", "audit.say.forbidden_delete"),
    UserCreate = ("create", "user", "user_create", "audit.kind.user_create", "audit.say.user_create"),
    UserActivate = ("activate", "user", "user_activate", "audit.kind.user_activate", "audit.say.user_activate"),
    UserDeactivate = ("deactivate", "user", "user_deactivate", "audit.kind.user_deactivate", "audit.say.user_deactivate"),
    UserPassword = ("password", "user", "user_password", "audit.kind.user_password", "audit.say.user_password"),
    UserSetLang = ("set_lang", "user", "user_set_lang", "audit.kind.user_set_lang", "audit.say.user_set_lang"),
}

impl AuditAction {
    /// The kind of a stored row; `None` for a pair no variant writes (an older or foreign row,
    /// which the page states generically).
    pub fn parse(action: &str, entity: &str) -> Option<AuditAction> {
        AuditAction::ALL.iter().copied().find(|k| k.action() == action && k.entity() == entity)
    }
    /// The kind named by a filter code.
    pub fn from_code(code: &str) -> Option<AuditAction> {
        AuditAction::ALL.iter().copied().find(|k| k.code() == code)
    }
}

/// The entities whose `entity_id` is a game's id.
pub const GAME_ENTITIES: &[&str] =
    &["game", "result", "ruling", "sgf", "replay_start", "game_count", "game_move"];

/// Audited writes made by this process (bumped when a write is recorded and again when the web
/// layer sees it finished). Caches of public pages compare it to decide whether to look at the
/// database's change tags again; see `web::public`.
static WRITES: AtomicU64 = AtomicU64::new(0);

/// The number of audited writes seen by this process so far.
pub fn writes() -> u64 {
    WRITES.load(Ordering::Acquire)
}

/// Note that a write has finished (committed or not): caches must look again.
pub fn note_write() {
    WRITES.fetch_add(1, Ordering::AcqRel);
}

/// 16 random hex digits: the tag of one state of a tournament.
/// Mark tournament `tid`'s public pages changed (its counter bumped, a new tag drawn), inside
/// the caller's transaction: what every audited write does to its own tournament, and what a
/// change of a group does to the other groups of its event, whose pages name the event's groups.
pub(crate) fn touch(conn: &mut Conn, tid: i32) -> Result<(), DbError> {
    diesel::update(tournaments::table.find(tid))
        .set((tournaments::changes.eq(tournaments::changes + 1), tournaments::change_tag.eq(random_tag())))
        .execute(conn)?;
    notify_change(conn, tid)
}

/// The PostgreSQL channel on which every audited write names its tournament (payload: the
/// tournament's id as text). PostgreSQL delivers it when the transaction commits, to every
/// connection that listens, on any server: the live pages and the public cache of every
/// `tengen serve` on the database (`web::live`, `web::public`).
pub const CHANGES_CHANNEL: &str = "tengen_changes";

/// Tell every server listening on PostgreSQL that `tid` changed, delivered at commit (a
/// rolled-back write sends nothing). SQLite has no such thing: the other servers on the file
/// see its `data_version` move instead.
#[cfg(feature = "postgres")]
fn notify_change(conn: &mut Conn, tid: i32) -> Result<(), DbError> {
    if let Conn::Pg(c) = conn {
        diesel::sql_query(format!("NOTIFY {CHANGES_CHANNEL}, '{tid}'")).execute(c)?;
    }
    Ok(())
}

#[cfg(not(feature = "postgres"))]
fn notify_change(_conn: &mut Conn, _tid: i32) -> Result<(), DbError> {
    Ok(())
}

fn random_tag() -> String {
    let mut b = [0u8; 8];
    if getrandom::fill(&mut b).is_err() {
        b = chrono::Utc::now().timestamp_nanos_opt().unwrap_or(0).to_le_bytes();
    }
    b.iter().map(|x| format!("{x:02x}")).collect()
}

#[derive(Debug, Clone, Queryable, Selectable, Serialize)]
#[diesel(table_name = audit)]
pub struct AuditRow {
    pub id: i32,
    pub tournament_id: Option<i32>,
    pub user_id: Option<i32>,
    pub actor: String,
    pub at: String,
    pub action: String,
    pub entity: String,
    pub entity_id: Option<i32>,
    pub before: Option<String>,
    pub after: Option<String>,
    pub reason: String,
}

#[derive(Insertable)]
#[diesel(table_name = audit)]
struct NewAudit<'a> {
    tournament_id: Option<i32>,
    user_id: Option<i32>,
    actor: &'a str,
    at: String,
    action: &'a str,
    entity: &'a str,
    entity_id: Option<i32>,
    before: Option<String>,
    after: Option<String>,
    reason: &'a str,
}

/// One change to record. `before`/`after` are serialised to JSON. The kind of change is typed,
/// so a call site cannot invent an (action, entity) pair the audit page has no sentence for.
pub struct Change<'a, B: Serialize, A: Serialize> {
    pub tournament_id: Option<i32>,
    pub action: AuditAction,
    pub entity_id: Option<i32>,
    pub before: Option<&'a B>,
    pub after: Option<&'a A>,
    pub reason: &'a str,
}

/// Write `change`'s row in the trail of each of `groups` (a write of the whole event, which
/// every group's pages show). Call inside the transaction of the write it records.
pub fn record_each<B: Serialize, A: Serialize>(
    conn: &mut Conn,
    actor: &Actor,
    groups: &[i32],
    change: Change<'_, B, A>,
) -> Result<(), DbError> {
    for &tid in groups {
        record(conn, actor, Change { tournament_id: Some(tid), ..change })?;
    }
    Ok(())
}

/// Write one audit row. Call inside the transaction of the write it records.
pub fn record<B: Serialize, A: Serialize>(
    conn: &mut Conn,
    actor: &Actor,
    change: Change<'_, B, A>,
) -> Result<(), DbError> {
    let row = NewAudit {
        tournament_id: change.tournament_id,
        user_id: actor.user_id,
        actor: &actor.name,
        at: now(),
        action: change.action.action(),
        entity: change.action.entity(),
        entity_id: change.entity_id,
        before: change.before.map(json),
        after: change.after.map(json),
        reason: change.reason,
    };
    diesel::insert_into(audit::table).values(&row).execute(conn)?;
    // Every audited write changes what the tournament's public pages show: bump its counter
    // and draw a new tag (the pages' ETag), in the same transaction.
    if let Some(tid) = change.tournament_id {
        touch(conn, tid)?;
    }
    note_write();
    Ok(())
}

fn json<T: Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
}

/// The audit rows of a tournament, newest first.
pub fn for_tournament(conn: &mut Conn, tid: i32, limit: i64) -> Result<Vec<AuditRow>, DbError> {
    Ok(audit::table
        .filter(audit::tournament_id.eq(tid))
        .order(audit::id.desc())
        .limit(limit)
        .select(AuditRow::as_select())
        .load(conn)?)
}

/// Audit rows about accounts (no tournament), newest first.
pub fn for_accounts(conn: &mut Conn, limit: i64) -> Result<Vec<AuditRow>, DbError> {
    Ok(audit::table
        .filter(audit::entity.eq("user"))
        .order(audit::id.desc())
        .limit(limit)
        .select(AuditRow::as_select())
        .load(conn)?)
}

/// What the audit page shows: rows older than `before` (keyset paging by id, newest first),
/// narrowed by each filter that is set. All filters hold together.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Filter {
    /// Only rows with an id below this one (the next page after a page ending at `before`).
    pub before: Option<i32>,
    /// Rows about a round by number: the round, its arrivals, its games and team matches.
    pub round: Option<i32>,
    /// Rows about one game (its pairing colours, result, rulings, record).
    pub game: Option<i32>,
    /// Rows about one entrant: the entrant's own rows and those of the entrant's games.
    pub entrant: Option<i32>,
    /// Rows written by one account.
    pub actor: Option<i32>,
    pub kind: Option<AuditAction>,
}

/// One page of rows of the audit page.
pub struct Page {
    pub rows: Vec<AuditRow>,
    /// More rows are older than the last one shown.
    pub more: bool,
}

type Cond = Box<dyn BoxableExpression<audit::table, super::backend::Db, SqlType = diesel::sql_types::Bool>>;

/// Rows whose entity is one of `entities` and whose id is one of `ids`.
fn about(entities: &[&'static str], ids: Vec<i32>) -> Cond {
    Box::new(audit::entity.eq_any(entities.to_vec()).and(audit::entity_id.assume_not_null().eq_any(ids)))
}

fn either(a: Cond, b: Cond) -> Cond {
    Box::new(a.or(b))
}

/// The condition of the round filter; the ids it names are looked up first.
fn round_cond(conn: &mut Conn, tid: i32, n: i32) -> Result<Cond, DbError> {
    use super::schema::{games, rounds, team_matches};
    let round_ids = rounds::table
        .filter(rounds::tournament_id.eq(tid).and(rounds::number.eq(n)))
        .select(rounds::id)
        .load(conn)?;
    let game_ids = games::table
        .filter(games::tournament_id.eq(tid).and(games::round_number.eq(n)))
        .select(games::id)
        .load(conn)?;
    let match_ids = team_matches::table
        .filter(team_matches::tournament_id.eq(tid).and(team_matches::round_number.eq(n)))
        .select(team_matches::id)
        .load(conn)?;
    Ok(either(
        either(about(&["round"], round_ids), about(&["arrivals", "team_round"], vec![n])),
        either(about(GAME_ENTITIES, game_ids), about(&["team_match"], match_ids)),
    ))
}

/// The condition of the entrant filter: the entrant and the games the entrant plays.
fn entrant_cond(conn: &mut Conn, tid: i32, eid: i32) -> Result<Cond, DbError> {
    use super::schema::games;
    let game_ids = games::table
        .filter(games::tournament_id.eq(tid))
        .filter(games::black_id.eq(eid).or(games::white_id.eq(eid)))
        .select(games::id)
        .load(conn)?;
    Ok(either(about(&["entrant"], vec![eid]), about(GAME_ENTITIES, game_ids)))
}

/// One page of a tournament's audit rows, newest first, `per_page` at most.
pub fn page(conn: &mut Conn, tid: i32, f: &Filter, per_page: i64) -> Result<Page, DbError> {
    let mut q = audit::table.filter(audit::tournament_id.eq(tid)).into_boxed();
    if let Some(b) = f.before {
        q = q.filter(audit::id.lt(b));
    }
    if let Some(n) = f.round {
        q = q.filter(round_cond(conn, tid, n)?);
    }
    if let Some(g) = f.game {
        q = q.filter(about(GAME_ENTITIES, vec![g]));
    }
    if let Some(e) = f.entrant {
        q = q.filter(entrant_cond(conn, tid, e)?);
    }
    if let Some(u) = f.actor {
        q = q.filter(audit::user_id.eq(u));
    }
    if let Some(k) = f.kind {
        q = q.filter(audit::action.eq(k.action()).and(audit::entity.eq(k.entity())));
    }
    let mut rows: Vec<AuditRow> =
        q.order(audit::id.desc()).limit(per_page + 1).select(AuditRow::as_select()).load(conn)?;
    let more = rows.len() as i64 > per_page;
    rows.truncate(per_page as usize);
    Ok(Page { rows, more })
}

/// The accounts that wrote a tournament's audit rows: (user id, name as recorded), by name.
pub fn actors(conn: &mut Conn, tid: i32) -> Result<Vec<(i32, String)>, DbError> {
    // By name, sorted here (code point order on both engines), id breaking ties.
    let mut rows: Vec<(Option<i32>, String)> = audit::table
        .filter(audit::tournament_id.eq(tid).and(audit::user_id.is_not_null()))
        .select((audit::user_id, audit::actor))
        .distinct()
        .load(conn)?;
    rows.sort_by(|a, b| (&a.1, a.0).cmp(&(&b.1, b.0)));
    let mut out: Vec<(i32, String)> = Vec::new();
    for (id, name) in rows {
        if let Some(id) = id.filter(|id| !out.iter().any(|(o, _)| o == id)) {
            out.push((id, name));
        }
    }
    Ok(out)
}

/// A game as the audit names it: round, board and the two players' entrant ids.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameRef {
    pub round: i32,
    pub board: i32,
    pub black: Option<i32>,
    pub white: Option<i32>,
}

/// A team match as the audit names it: round, table and the two teams' ids.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MatchRef {
    pub round: i32,
    pub table: i32,
    pub black: i32,
    pub white: Option<i32>,
}

/// What the rows of one audit page talk about, looked up by id so each row can be told as a
/// sentence naming its subject. Things deleted since are missing; the page then names them
/// from the row's JSON or by number.
#[derive(Debug, Clone, Default)]
pub struct Subjects {
    /// The tournament's names (中文, Latin).
    pub tournament: (String, String),
    /// Every entrant of the tournament (also the person filter's choices).
    pub entrants: std::collections::HashMap<i32, crate::rows::EntrantRow>,
    /// Round row id → round number.
    pub rounds: std::collections::HashMap<i32, i32>,
    pub games: std::collections::HashMap<i32, GameRef>,
    pub teams: std::collections::HashMap<i32, String>,
    pub matches: std::collections::HashMap<i32, MatchRef>,
    /// Account id → display name.
    pub users: std::collections::HashMap<i32, String>,
}

/// The ids of `rows` whose entity is one of `entities`.
fn ids_of(rows: &[AuditRow], entities: &[&str]) -> Vec<i32> {
    rows.iter().filter(|r| entities.contains(&r.entity.as_str())).filter_map(|r| r.entity_id).collect()
}

/// Look up what `rows` (of tournament `tid`) are about.
pub fn subjects(conn: &mut Conn, tid: i32, rows: &[AuditRow]) -> Result<Subjects, DbError> {
    use super::schema::{entrants, games, rounds, team_matches, teams, users};
    use crate::rows::EntrantRow;
    let tournament =
        tournaments::table.find(tid).select((tournaments::name_zh, tournaments::name_latin)).first(conn)?;
    let entrants = entrants::table
        .filter(entrants::tournament_id.eq(tid))
        .select(EntrantRow::as_select())
        .load(conn)?
        .into_iter()
        .map(|e| (e.id, e))
        .collect();
    let rounds = rounds::table
        .filter(rounds::tournament_id.eq(tid).and(rounds::id.eq_any(ids_of(rows, &["round"]))))
        .select((rounds::id, rounds::number))
        .load::<(i32, i32)>(conn)?
        .into_iter()
        .collect();
    let games = games::table
        .filter(games::tournament_id.eq(tid).and(games::id.eq_any(ids_of(rows, GAME_ENTITIES))))
        .select((games::id, games::round_number, games::board, games::black_id, games::white_id))
        .load::<(i32, i32, i32, Option<i32>, Option<i32>)>(conn)?
        .into_iter()
        .map(|(id, round, board, black, white)| (id, GameRef { round, board, black, white }))
        .collect();
    let matches: std::collections::HashMap<i32, MatchRef> = team_matches::table
        .filter(
            team_matches::tournament_id.eq(tid).and(team_matches::id.eq_any(ids_of(rows, &["team_match"]))),
        )
        .select((
            team_matches::id,
            team_matches::round_number,
            team_matches::table_no,
            team_matches::black_team_id,
            team_matches::white_team_id,
        ))
        .load::<(i32, i32, i32, i32, Option<i32>)>(conn)?
        .into_iter()
        .map(|(id, round, table, black, white)| (id, MatchRef { round, table, black, white }))
        .collect();
    let mut team_ids = ids_of(rows, &["team"]);
    team_ids.extend(matches.values().flat_map(|m| [Some(m.black), m.white]).flatten());
    let teams = teams::table
        .filter(teams::tournament_id.eq(tid).and(teams::id.eq_any(team_ids)))
        .select((teams::id, teams::name))
        .load::<(i32, String)>(conn)?
        .into_iter()
        .collect();
    let users = users::table
        .filter(users::id.eq_any(ids_of(rows, &["staff", "user"])))
        .select((users::id, users::display_name))
        .load::<(i32, String)>(conn)?
        .into_iter()
        .collect();
    Ok(Subjects { tournament, entrants, rounds, games, teams, matches, users })
}

/// The round numbers a tournament has (individual or team rounds), ascending: the round
/// filter's choices.
pub fn round_numbers(conn: &mut Conn, tid: i32) -> Result<Vec<i32>, DbError> {
    use super::schema::{rounds, team_rounds};
    let mut n: Vec<i32> =
        rounds::table.filter(rounds::tournament_id.eq(tid)).select(rounds::number).load(conn)?;
    n.extend(
        team_rounds::table
            .filter(team_rounds::tournament_id.eq(tid))
            .select(team_rounds::number)
            .load::<i32>(conn)?,
    );
    n.sort_unstable();
    n.dedup();
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    type Pooled = crate::DbConn;

    fn setup() -> (tempfile::TempDir, Pooled, i32) {
        let dir = tempfile::tempdir().unwrap();
        let pool = crate::open(&dir.path().join("t.db")).unwrap();
        let mut conn = pool.get().unwrap();
        let mut s =
            domain::settings::TournamentSettings::defaults(chrono::NaiveDate::MIN, crate::server_zone());
        s.name_latin = "Audit".into();
        let tid = super::super::tournaments::create(&mut conn, &Actor::system("test"), &s).unwrap();
        (dir, conn, tid)
    }

    /// Row `i` of the big trail: a result of game 1–10 by one of two accounts; every third a
    /// ruling instead.
    fn write_rows(conn: &mut Conn, tid: i32, n: i32) {
        crate::write_tx(&mut *conn, |c| {
            for i in 0..n {
                let actor = Actor { user_id: Some(1 + i % 2), name: format!("arbiter{}", 1 + i % 2) };
                let action = if i % 3 == 0 { AuditAction::RulingAdd } else { AuditAction::ResultEnter };
                let change: Change<'_, (), i32> = Change {
                    tournament_id: Some(tid),
                    action,
                    entity_id: Some(1 + i % 10),
                    before: None,
                    after: Some(&i),
                    reason: "",
                };
                record(c, &actor, change)?;
            }
            Ok::<_, DbError>(())
        })
        .unwrap();
    }

    /// Every row of the filter, page by page along `before`.
    fn walk(conn: &mut Conn, tid: i32, f: &Filter) -> Vec<i32> {
        let mut ids = Vec::new();
        let mut f = f.clone();
        loop {
            let p = page(conn, tid, &f, 100).unwrap();
            assert!(p.rows.len() <= 100);
            ids.extend(p.rows.iter().map(|r| r.id));
            match (p.more, p.rows.last()) {
                (true, Some(last)) => f.before = Some(last.id),
                _ => return ids,
            }
        }
    }

    #[test]
    fn thousands_of_rows_page_by_id_and_filter() {
        let (_dir, mut conn, tid) = setup();
        write_rows(&mut conn, tid, 3000);
        let all = walk(&mut conn, tid, &Filter::default());
        assert_eq!(all.len(), 3001, "the 3,000 rows and the tournament's creation");
        assert!(all.windows(2).all(|w| w[0] > w[1]), "newest first, no row twice");
        let first = page(&mut conn, tid, &Filter::default(), 100).unwrap();
        assert_eq!(first.rows.len(), 100);
        assert!(first.more);

        let rulings =
            walk(&mut conn, tid, &Filter { kind: Some(AuditAction::RulingAdd), ..Default::default() });
        assert_eq!(rulings.len(), 1000);
        let game3 = walk(&mut conn, tid, &Filter { game: Some(3), ..Default::default() });
        assert_eq!(game3.len(), 300);
        let by2 = walk(&mut conn, tid, &Filter { actor: Some(2), ..Default::default() });
        assert_eq!(by2.len(), 1500);
        let both = Filter {
            actor: Some(2),
            game: Some(2),
            kind: Some(AuditAction::ResultEnter),
            ..Default::default()
        };
        let rows = walk(&mut conn, tid, &both);
        // i ≡ 1 (mod 10) and i odd: every 10th row; of those the ones with i % 3 != 0.
        assert_eq!(rows.len(), (0..3000).filter(|i| i % 10 == 1 && i % 3 != 0).count());
        // The kind filter is the stored pair: a result row is not a ruling row.
        let none = Filter { game: Some(2), kind: Some(AuditAction::TournamentCreate), ..Default::default() };
        assert!(walk(&mut conn, tid, &none).is_empty());
        assert_eq!(actors(&mut conn, tid).unwrap(), vec![(1, "arbiter1".into()), (2, "arbiter2".into())]);
    }

    /// The page query reads along the `audit_tournament` index, not the whole table.
    #[test]
    fn the_page_query_uses_the_tournament_index() {
        let (_dir, mut conn, tid) = setup();
        let q = audit::table
            .filter(audit::tournament_id.eq(tid))
            .filter(audit::id.lt(10))
            .order(audit::id.desc())
            .limit(101)
            .select(AuditRow::as_select());
        let sql = diesel::debug_query::<diesel::sqlite::Sqlite, _>(&q).to_string();
        let sql = sql
            .split(" -- binds")
            .next()
            .unwrap()
            .replacen('?', &tid.to_string(), 1)
            .replacen('?', "10", 1)
            .replacen('?', "101", 1);
        #[derive(QueryableByName)]
        struct Plan {
            #[diesel(sql_type = diesel::sql_types::Text)]
            detail: String,
        }
        let plan: Vec<Plan> = diesel::sql_query(format!("EXPLAIN QUERY PLAN {sql}")).load(&mut conn).unwrap();
        assert!(
            plan.iter().any(|p| p.detail.contains("audit_tournament")),
            "{:?}",
            plan.iter().map(|p| &p.detail).collect::<Vec<_>>()
        );
    }
}
