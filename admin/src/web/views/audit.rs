//! The audit page (`templates/audit.html`) and the audit rows of the accounts page: each row
//! told as a sentence in the reader's language (who did what to whom), at the venue's time,
//! with the links that narrow the page to its round, game or entrant.

use super::pages::{AuditPage, Chrome, Line};
use crate::db::audit::{self, AuditAction, AuditRow, Filter, Subjects};
use crate::db::entrants::EntrantRow;
use crate::domain::event_time::EventZone;
use crate::i18n::tr;
use crate::i18n::Lang;

/// The time of a row as the page shows it: the stored UTC text in the event's time zone
/// (`domain::event_time`), so a row reads in the venue's clock, not the server's.
pub fn shown_time(zone: &EventZone, at: &str) -> String {
    zone.date_time(at)
}

/// An entrant's name in the reader's script (the other one when it is missing).
fn entrant_name(lang: Lang, e: &EntrantRow) -> String {
    name_in(lang, e.name_zh(), e.name_latin())
}

fn name_in(lang: Lang, zh: String, latin: String) -> String {
    match (lang.is_zh(), zh.trim().is_empty(), latin.trim().is_empty()) {
        (true, false, _) | (false, false, true) => zh,
        _ => latin,
    }
}

/// The row's JSON after the change, else before it.
fn snapshot(row: &AuditRow) -> Option<serde_json::Value> {
    [&row.after, &row.before].into_iter().flatten().find_map(|j| serde_json::from_str(j).ok())
}

/// A text field of a JSON object.
fn field<'a>(v: &'a serde_json::Value, key: &str) -> &'a str {
    v.get(key).and_then(|x| x.as_str()).unwrap_or("")
}

/// An entrant by id: from the tournament, else (deleted since) from the row's JSON, else by id.
fn entrant_text(lang: Lang, s: &Subjects, eid: Option<i32>, row: &AuditRow) -> String {
    if let Some(e) = eid.and_then(|i| s.entrants.get(&i)) {
        return entrant_name(lang, e);
    }
    let from_json = snapshot(row)
        .map(|v| {
            name_in(
                lang,
                format!("{}{}", field(&v, "family_name_zh"), field(&v, "given_name_zh")),
                format!("{} {}", field(&v, "family_name_latin"), field(&v, "given_name_latin"))
                    .trim()
                    .to_string(),
            )
        })
        .filter(|n| !n.trim().is_empty());
    from_json.unwrap_or_else(|| tr!(lang, "audit.subj.entrant_gone", id = eid.unwrap_or(0)))
}

/// A player of a game by entrant id; the bye when there is none.
fn player_text(lang: Lang, s: &Subjects, eid: Option<i32>) -> String {
    match eid {
        None => lang.t("audit.subj.bye").to_string(),
        Some(i) => s
            .entrants
            .get(&i)
            .map(|e| entrant_name(lang, e))
            .unwrap_or_else(|| tr!(lang, "audit.subj.entrant_gone", id = i)),
    }
}

fn team_text(lang: Lang, s: &Subjects, tid: Option<i32>) -> String {
    match tid {
        None => lang.t("audit.subj.bye").to_string(),
        Some(i) => s.teams.get(&i).cloned().unwrap_or_else(|| tr!(lang, "audit.subj.team_gone", id = i)),
    }
}

fn round_text(lang: Lang, n: i32) -> String {
    tr!(lang, "audit.subj.round", round = n)
}

/// What a row is about: its name for the reader, and the round, game and entrant it concerns
/// (for the links that narrow the page to them).
#[derive(Default)]
struct About {
    text: String,
    round: Option<i32>,
    game: Option<i32>,
    entrant: Option<i32>,
}

impl About {
    fn named(text: String) -> About {
        About { text, ..About::default() }
    }
}

/// What the row is about, named for the reader.
fn subject(lang: Lang, row: &AuditRow, s: &Subjects) -> About {
    let eid = row.entity_id;
    let n = eid.unwrap_or(0);
    match row.entity.as_str() {
        "tournament" | "team_settings" | "prize_settings" | "prizes" => {
            let (zh, latin) = s.tournament.clone();
            About::named(name_in(lang, zh, latin))
        }
        "group" => {
            let pick = if lang.is_zh() { "group_name_zh" } else { "group_name_latin" };
            let name = snapshot(row)
                .map(|v| field(&v, pick).to_string())
                .filter(|x| !x.is_empty())
                .unwrap_or_else(|| name_in(lang, s.tournament.0.clone(), s.tournament.1.clone()));
            About::named(name)
        }
        // A registration by its reference; the event's settings by the group's name.
        "registration" => About::named(
            snapshot(row)
                .map(|v| field(&v, "reference").to_string())
                .filter(|r| !r.is_empty())
                .unwrap_or_else(|| name_in(lang, s.tournament.0.clone(), s.tournament.1.clone())),
        ),
        // A rating list by its name.
        "rating_list" => {
            About::named(snapshot(row).map(|v| field(&v, "name").to_string()).unwrap_or_default())
        }
        // A display screen (大屏) by its name.
        "screen" => About::named(
            snapshot(row)
                .and_then(|v| v.get("setup")?.get("name")?.as_str().map(str::to_string))
                .unwrap_or_default(),
        ),
        // A group that must not meet (回避) by its label.
        "forbidden_pair" => About::named(
            snapshot(row)
                .and_then(|v| v.get("setup")?.get("label")?.as_str().map(str::to_string))
                .unwrap_or_default(),
        ),
        "entrant" => About { entrant: eid, ..About::named(entrant_text(lang, s, eid, row)) },
        "round" => round_about(lang, row, s),
        "arrivals" | "team_round" | "check_in_round" => {
            About { round: Some(n), ..About::named(round_text(lang, n)) }
        }
        e if audit::GAME_ENTITIES.contains(&e) => game_about(lang, eid, s),
        "team_match" => match_about(lang, eid, s),
        "team" => {
            let name = eid
                .and_then(|i| s.teams.get(&i).cloned())
                .or_else(|| snapshot(row).map(|v| field(&v, "name").to_string()).filter(|x| !x.is_empty()))
                .unwrap_or_else(|| tr!(lang, "audit.subj.team_gone", id = n));
            About::named(name)
        }
        "staff" | "user" => {
            let name = eid
                .and_then(|i| s.users.get(&i).cloned())
                .unwrap_or_else(|| tr!(lang, "audit.subj.user_gone", id = n));
            About::named(name)
        }
        _ => About::named(format!("{} #{n}", row.entity)),
    }
}

/// A round by its number: of the tournament, else (deleted since) from the row's JSON, else
/// by its id.
fn round_about(lang: Lang, row: &AuditRow, s: &Subjects) -> About {
    let eid = row.entity_id;
    let number = eid
        .and_then(|i| s.rounds.get(&i).copied())
        .or_else(|| snapshot(row).and_then(|v| v.get("round").and_then(|r| r.as_i64())).map(|r| r as i32));
    match number {
        Some(r) => About { round: Some(r), ..About::named(round_text(lang, r)) },
        None => About::named(tr!(lang, "audit.subj.round_gone", id = eid.unwrap_or(0))),
    }
}

/// A game (or its result) by round, board and players; by its id once re-paired away.
fn game_about(lang: Lang, eid: Option<i32>, s: &Subjects) -> About {
    match eid.and_then(|i| s.games.get(&i)) {
        Some(g) => About {
            text: tr!(
                lang,
                "audit.subj.game",
                round = g.round,
                board = g.board,
                black = player_text(lang, s, g.black),
                white = player_text(lang, s, g.white),
            ),
            round: Some(g.round),
            game: eid,
            entrant: None,
        },
        None => About { game: eid, ..About::named(tr!(lang, "audit.subj.game_gone", id = eid.unwrap_or(0))) },
    }
}

/// A team match by round, table and teams; by its id once deleted.
fn match_about(lang: Lang, eid: Option<i32>, s: &Subjects) -> About {
    match eid.and_then(|i| s.matches.get(&i)) {
        Some(m) => About {
            round: Some(m.round),
            ..About::named(tr!(
                lang,
                "audit.subj.match",
                round = m.round,
                table = m.table,
                black = team_text(lang, s, Some(m.black)),
                white = team_text(lang, s, m.white),
            ))
        },
        None => About::named(tr!(lang, "audit.subj.match_gone", id = eid.unwrap_or(0))),
    }
}

/// A row's reason as the page shows it: what the user typed, as typed; the reasons the program
/// writes itself — who confirmed a result, where an import came from, the first account, a
/// password change — are stable codes worded here from the catalog.
pub fn shown_reason(lang: Lang, kind: Option<AuditAction>, reason: &str) -> String {
    use AuditAction::{ResultConfirm, ResultLock, UserCreate, UserPassword};
    let key = match (kind, reason) {
        (Some(ResultConfirm | ResultLock), "black") => Some("audit.r.black"),
        (Some(ResultConfirm | ResultLock), "white") => Some("audit.r.white"),
        (Some(ResultConfirm | ResultLock), "arbiter") => Some("audit.r.arbiter"),
        (Some(UserCreate), "first organizer account") => Some("audit.r.first_account"),
        (Some(UserPassword), "password changed") => Some("audit.r.password_changed"),
        (_, "demo") => Some("audit.r.demo"),
        _ => None,
    };
    if let Some(k) = key {
        return lang.t(k).to_string();
    }
    // `db::entrants::ImportNote::source` of the import pages: "csv import" or "opengotha
    // import", then ", N bad rows dropped" when the organizer dropped rows.
    let (source, dropped) = match reason.split_once(", ") {
        Some((src, rest)) => match rest.strip_suffix(" bad rows dropped").and_then(|n| n.parse::<u32>().ok())
        {
            Some(n) => (src, Some(n)),
            None => (reason, None),
        },
        None => (reason, None),
    };
    let source = match source {
        "csv import" => lang.t("audit.r.csv_import"),
        "opengotha import" => lang.t("audit.r.og_import"),
        _ => return reason.to_string(),
    };
    match dropped {
        Some(n) => tr!(lang, "audit.r.bad_dropped", source, count = n),
        None => source.to_string(),
    }
}

/// What a ruling's or a result's row decided, in words: the rulings added or proposed (a
/// double loss with its cause and article, seed 000 Arts. 17.5, 17.6), the proposal the chief
/// arbiter decided with who proposed it (Arts. 17.5, 17.6), the ruling deleted, the result
/// entered. `None` for other rows, or a row whose JSON holds none of these.
fn detail(lang: Lang, kind: Option<AuditAction>, row: &AuditRow) -> Option<String> {
    use rules::rulings::{GameResult, Ruling, RulingKind};
    let json =
        |j: &Option<String>| j.as_deref().and_then(|j| serde_json::from_str::<serde_json::Value>(j).ok());
    let (before, after) = (json(&row.before), json(&row.after));
    let ruling = |v: &serde_json::Value| serde_json::from_value::<Ruling>(v.clone()).ok();
    let words = |r: &Ruling| super::text::ruling_text(lang, r);
    match kind? {
        AuditAction::RulingAdd | AuditAction::RulingPropose | AuditAction::RulingLateness => {
            let added = after?.get("added")?.as_array()?.clone();
            let texts: Vec<String> =
                added.iter().filter_map(|n| n.get("ruling").and_then(ruling)).map(|r| words(&r)).collect();
            (!texts.is_empty()).then(|| texts.join(lang.t("audit.list_sep")))
        }
        AuditAction::RulingConfirm | AuditAction::RulingReject => {
            let a = after?;
            let r = a.get("ruling").and_then(ruling)?;
            Some(tr!(lang, "audit.proposed_by", ruling = words(&r), user = field(&a, "proposed_by")))
        }
        AuditAction::RulingDelete => {
            let b = before?;
            let kind: RulingKind = serde_json::from_str(field(&b, "kind")).ok()?;
            Some(super::text::kind_label_full(lang, &kind))
        }
        // A withdrawal (退赛, seed 000 Art. 15.2): its first round missed, date and reason.
        AuditAction::EntrantWithdraw => {
            let a = after?;
            let round = a.get("withdrawn_from_round")?.as_i64()?;
            let (date, reason) = (field(&a, "withdrawn_on"), field(&a, "withdrawal_reason"));
            (!date.is_empty()).then(|| tr!(lang, "wd.status", round, date, reason))
        }
        AuditAction::ResultEnter | AuditAction::ResultCorrect => {
            let r: GameResult = serde_json::from_value(after?.get("outcome")?.clone()).ok()?;
            Some(lang.game_result(&r))
        }
        _ => None,
    }
}

/// One row as a line of the page: its sentence and the links it offers.
pub fn line(lang: Lang, row: &AuditRow, s: &Subjects) -> Line {
    let about = subject(lang, row, s);
    let kind = AuditAction::parse(&row.action, &row.entity);
    // The program's own actors (`db::Actor::system`) by what they are; people by their names.
    let actor = match (row.user_id, row.actor.as_str()) {
        (None, "first-run") => lang.t("audit.actor.first_run").to_string(),
        (None, "cli") => lang.t("audit.actor.cli").to_string(),
        (None, "demo") => lang.t("audit.actor.demo").to_string(),
        (None, "self-check-in") => lang.t("audit.actor.self_check_in").to_string(),
        _ => row.actor.clone(),
    };
    let sentence = match kind {
        Some(k) => tr!(lang, k.sentence_key(), actor, subject = about.text),
        None => tr!(lang, "audit.say.unknown", actor, action = row.action, subject = about.text),
    };
    let sentence = match detail(lang, kind, row) {
        Some(d) => tr!(lang, "audit.with_detail", sentence, detail = d),
        None => sentence,
    };
    Line {
        id: row.id,
        at: row.at.clone(),
        sentence,
        reason: shown_reason(lang, kind, &row.reason),
        before: row.before.clone(),
        after: row.after.clone(),
        round: about.round,
        game: about.game,
        entrant: about.entrant,
    }
}

/// The choices of a filter's select: (value, label, selected).
fn choices(
    items: impl IntoIterator<Item = (i32, String)>,
    chosen: Option<i32>,
) -> Vec<(String, String, bool)> {
    items.into_iter().map(|(v, label)| (v.to_string(), label, chosen == Some(v))).collect()
}

/// One page of audit rows with what names them, and the filters' choices.
pub struct Loaded {
    pub pg: audit::Page,
    pub subjects: Subjects,
    pub actors: Vec<(i32, String)>,
    pub rounds: Vec<i32>,
}

/// The audit page: the rows as sentences at the venue's time, the links to older and newest
/// rows under the same `filter`, and the filters' choices (people sorted by name).
pub fn audit_page(c: Chrome, lang: Lang, zone: EventZone, filter: Filter, d: Loaded) -> AuditPage {
    let Loaded { pg, subjects, actors, rounds } = d;
    let lines: Vec<Line> =
        pg.rows.iter().map(|r| Line { at: shown_time(&zone, &r.at), ..line(lang, r, &subjects) }).collect();
    let older = match (pg.more, lines.last()) {
        (true, Some(last)) => Some(query_of(&Filter { before: Some(last.id), ..filter.clone() })),
        _ => None,
    };
    let newest = filter.before.map(|_| query_of(&Filter { before: None, ..filter.clone() }));
    let mut people: Vec<(i32, String)> =
        subjects.entrants.values().map(|e| (e.id, entrant_name(lang, e))).collect();
    people.sort_by(|a, b| a.1.cmp(&b.1).then(a.0.cmp(&b.0)));
    let kinds = AuditAction::ALL
        .iter()
        .map(|k| (k.code().to_string(), lang.t(k.label_key()).to_string(), filter.kind == Some(*k)))
        .collect();
    AuditPage {
        title: c.title.clone(),
        tid: c.tid.unwrap_or_default(),
        c,
        lines,
        older,
        newest,
        rounds: choices(rounds.into_iter().map(|n| (n, round_text(lang, n))), filter.round),
        entrants: choices(people, filter.entrant),
        actors: choices(actors, filter.actor),
        kinds,
        filtered: filter != Filter::default(),
        filter,
    }
}

/// The query string of a filter (`before` included), for the page's links.
pub fn query_of(f: &Filter) -> String {
    let mut parts = Vec::new();
    for (k, v) in [
        ("round", f.round),
        ("game", f.game),
        ("entrant", f.entrant),
        ("actor", f.actor),
        ("before", f.before),
    ] {
        if let Some(v) = v {
            parts.push(format!("{k}={v}"));
        }
    }
    if let Some(k) = f.kind {
        parts.push(format!("kind={}", k.code()));
    }
    parts.join("&")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::audit::GameRef;

    fn row(action: &str, entity: &str, entity_id: i32) -> AuditRow {
        AuditRow {
            id: 7,
            tournament_id: Some(1),
            user_id: Some(1),
            actor: "裁判长".into(),
            at: "2026-12-02 13:00:00".into(),
            action: action.into(),
            entity: entity.into(),
            entity_id: Some(entity_id),
            before: None,
            after: None,
            reason: String::new(),
        }
    }

    fn entrant(id: i32, family: &str, given: &str, latin: (&str, &str)) -> EntrantRow {
        EntrantRow {
            id,
            tournament_id: 1,
            family_name_zh: family.into(),
            given_name_zh: given.into(),
            family_name_latin: latin.0.into(),
            given_name_latin: latin.1.into(),
            rank: "1d".into(),
            rank_value: 0,
            rating: None,
            unit: String::new(),
            region: String::new(),
            birth_date: None,
            sex: None,
            notes: String::new(),
            status: "confirmed".into(),
            version: 1,
            created_at: String::new(),
            updated_at: String::new(),
            withdrawn_from_round: None,
            withdrawn_on: None,
            withdrawal_reason: String::new(),
            withdrawal_reason_public: false,
            person_id: None,
            egd_pin: String::new(),
            federation_id: String::new(),
        }
    }

    fn subjects() -> Subjects {
        let mut s = Subjects { tournament: ("测试赛".into(), "Test Open".into()), ..Default::default() };
        s.entrants.insert(3, entrant(3, "王", "一", ("Wang", "Yi")));
        s.entrants.insert(4, entrant(4, "李", "二", ("Li", "Er")));
        s.rounds.insert(20, 2);
        s.games.insert(9, GameRef { round: 2, board: 5, black: Some(3), white: Some(4) });
        s
    }

    /// Every kind has its label and sentence in both languages, and the stored strings and
    /// filter codes read back to the same kind (so no two kinds share a pair or a code).
    #[test]
    fn every_kind_has_its_sentences_and_round_trips() {
        for &k in AuditAction::ALL {
            for key in [k.label_key(), k.sentence_key()] {
                assert!(crate::i18n::has_key(key), "{k:?}: {key} not in the catalog");
            }
            assert_eq!(AuditAction::parse(k.action(), k.entity()), Some(k), "{k:?}");
            assert_eq!(AuditAction::from_code(k.code()), Some(k), "{k:?}");
            let zh = tr!(Lang::Zh, k.sentence_key(), actor = "甲", subject = "乙");
            let en = tr!(Lang::En, k.sentence_key(), actor = "A", subject = "B");
            assert!(zh.contains('甲') && zh.contains('乙') && !zh.is_ascii(), "{k:?}: {zh}");
            assert!(en.contains('A') && en.contains('B') && en.is_ascii(), "{k:?}: {en}");
        }
    }

    /// The reasons the program writes are worded in the reader's language; typed ones stay.
    #[test]
    fn program_written_reasons_are_worded() {
        let confirm = Some(AuditAction::ResultConfirm);
        assert_eq!(shown_reason(Lang::Zh, confirm, "black"), "黑方签字确认");
        assert_eq!(shown_reason(Lang::En, Some(AuditAction::ResultLock), "arbiter"), "signed by the arbiter");
        assert_eq!(shown_reason(Lang::Zh, None, "csv import"), "CSV 导入");
        assert_eq!(
            shown_reason(Lang::Zh, None, "opengotha import, 3 bad rows dropped"),
            "OpenGotha 导入，舍弃 3 个错误行"
        );
        assert_eq!(
            shown_reason(Lang::Zh, Some(AuditAction::UserCreate), "first organizer account"),
            "首个组织者账号"
        );
        for typed in ["数子有误，复核后更正", "black", "csv import, by hand"] {
            assert_eq!(shown_reason(Lang::En, Some(AuditAction::ResultCorrect), typed), typed);
        }
    }

    #[test]
    fn a_result_names_the_round_board_and_players() {
        let s = subjects();
        let l = line(Lang::Zh, &row("enter", "result", 9), &s);
        assert_eq!(l.sentence, "裁判长登记了第2轮第5台（王一 – 李二）的成绩");
        assert_eq!((l.round, l.game, l.entrant), (Some(2), Some(9), None));
        let l = line(Lang::En, &row("enter", "result", 9), &s);
        assert_eq!(l.sentence, "裁判长 entered the result of round 2, board 5 (Wang Yi - Li Er)");
    }

    #[test]
    fn entrants_and_rounds_are_named() {
        let s = subjects();
        assert_eq!(line(Lang::Zh, &row("create", "entrant", 3), &s).sentence, "裁判长添加了选手王一");
        assert_eq!(line(Lang::Zh, &row("pair", "round", 20), &s).sentence, "裁判长编排了第2轮");
        assert_eq!(line(Lang::En, &row("pair", "round", 20), &s).sentence, "裁判长 paired round 2");
        // A deleted entrant is named from the row's JSON.
        let mut gone = row("delete", "entrant", 99);
        gone.before = Some(r#"{"family_name_zh":"赵","given_name_zh":"四","family_name_latin":"Zhao","given_name_latin":"Si"}"#.into());
        assert_eq!(line(Lang::En, &gone, &s).sentence, "裁判长 deleted the entrant Zhao Si");
        assert_eq!(line(Lang::Zh, &gone, &s).sentence, "裁判长删除了选手赵四");
        // A game re-paired away is named by its number.
        assert!(line(Lang::Zh, &row("enter", "result", 1234), &s).sentence.contains("1234"));
    }

    #[test]
    fn an_unknown_pair_is_a_generic_sentence() {
        let l = line(Lang::Zh, &row("frobnicate", "widget", 5), &subjects());
        assert_eq!(l.sentence, "裁判长进行了一项修改（frobnicate：widget #5）");
    }
}
