//! What `tengen export` and `tengen print` share: the round arguments, opening an existing
//! database (a mistyped `--db` is an error, not a new empty file) and writing the output (`-`
//! is stdout). A leaf of `cli`, so the two commands use it without using each other.
//! [`CliError`]: what every command refuses, typed here and worded at the edge (`cli::run`).

use crate::db::Conn;
use crate::db::{self, tournaments as tdb, DbError, DbPool};
use crate::documents::BadOption;
use crate::domain::team::matches::MatchRefusal;
use crate::i18n::{tr, Lang};
use clap::Args;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Which round, the label language and where to write.
#[derive(Args, Debug)]
pub struct RoundArgs {
    /// Tournament id (as in the address /t/ID).
    #[arg(long)]
    pub tournament: i32,
    /// Round number, from 1.
    #[arg(long)]
    pub round: i32,
    /// Language of the labels: zh or en.
    #[arg(long, default_value = "zh")]
    pub lang: String,
    /// Output file (`-` for stdout).
    #[arg(long)]
    pub out: PathBuf,
}

impl RoundArgs {
    /// A one-line refusal for an unknown tournament or round.
    pub(super) fn check_round(&self, conn: &mut Conn) -> Result<(), CliError> {
        check_tournament(conn, self.tournament)?;
        match crate::db::rounds::get(conn, self.tournament, self.round) {
            Ok(_) => Ok(()),
            Err(DbError::NotFound) => {
                Err(CliError::NoRound { tournament: self.tournament, round: self.round })
            }
            Err(e) => Err(e.into()),
        }
    }
}

pub(super) fn check_tournament(conn: &mut Conn, tid: i32) -> Result<(), CliError> {
    match tdb::get(conn, tid) {
        Ok(_) => Ok(()),
        Err(DbError::NotFound) => Err(CliError::NoTournament(tid)),
        Err(e) => Err(e.into()),
    }
}

/// Opens the database file, which must exist.
pub(super) fn open_existing(path: &Path) -> Result<DbPool, CliError> {
    if !path.is_file() && matches!(db::Target::of(path), db::Target::Sqlite(_)) {
        return Err(CliError::NoDatabaseFile(path.to_path_buf()));
    }
    Ok(db::open(path)?)
}

/// Writes the file, or stdout for `-`.
pub(super) fn write_out(out: &Path, bytes: &[u8]) -> Result<(), CliError> {
    let cannot = |e: std::io::Error| CliError::CannotWrite { file: out.to_path_buf(), error: e.to_string() };
    if out.as_os_str() == "-" {
        let mut stdout = std::io::stdout().lock();
        return stdout.write_all(bytes).and_then(|_| stdout.flush()).map_err(cannot);
    }
    std::fs::write(out, bytes).map_err(cannot)
}

/// What a command refuses or fails at: one line on stderr and exit code 1, worded in the
/// user's language where the command ends ([`CliError::words`]).
#[derive(Debug)]
pub enum CliError {
    /// Already worded: a refusal in the command's own `--lang`, or the database's or the
    /// system's own message (its text is not ours to translate).
    Said(String),
    /// `--db` names a SQLite file that does not exist.
    NoDatabaseFile(PathBuf),
    NoTournament(i32),
    NoRound {
        tournament: i32,
        round: i32,
    },
    /// The round is not published, and the document is of published rounds only.
    NotPublished {
        tournament: i32,
        round: i32,
    },
    NotTeamEvent(i32),
    NoMatch {
        tournament: i32,
        match_id: i32,
    },
    /// The match's sheets cannot be printed yet; `why` is the relay's refusal.
    MatchNotReady {
        match_id: i32,
        why: MatchRefusal,
    },
    /// An option value not allowed (`--per-page 3`).
    BadOption(BadOption),
    /// The file (`-`: stdout) cannot be written; `error` is the system's.
    CannotWrite {
        file: PathBuf,
        error: String,
    },
    /// The PDF could not be made; `error` is the printer's.
    PrintingFailed(String),
    /// `demo` fills a fresh database only.
    HasTournaments(String),
    BadRole,
    NameTaken(String),
    NoAccount(String),
    /// `migrate-db` from anything but a SQLite file, or to anything but PostgreSQL.
    MigrateTargets,
    /// A value `flag` cannot take (`--idle-timeout ten`).
    BadValue {
        flag: &'static str,
        bad: BadValue,
    },
}

/// A value an option of `tengen serve` (or `--public-url` of `tengen print table-cards`)
/// cannot take; each holds what was given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BadValue {
    /// Not a duration (`90m`, `4h`, `1h 30m`, or seconds).
    NotDuration(String),
    ZeroDuration(String),
    UnderASecond(String),
    /// A URL without http:// or https://.
    NoScheme(String),
    NoHost(String),
    NotUrl(String),
    /// Not an address or a network (`127.0.0.1`, `10.0.0.0/8`).
    NotNetwork(String),
    /// Not a number of worker threads (1–512).
    NotWorkers(String),
}

impl BadValue {
    fn words(&self, lang: Lang) -> String {
        let (key, given) = match self {
            BadValue::NotDuration(g) => ("cli_err.not_duration", g),
            BadValue::ZeroDuration(g) => ("cli_err.zero_duration", g),
            BadValue::UnderASecond(g) => ("cli_err.under_a_second", g),
            BadValue::NoScheme(g) => ("cli_err.no_scheme", g),
            BadValue::NoHost(g) => ("cli_err.no_host", g),
            BadValue::NotUrl(g) => ("cli_err.not_url", g),
            BadValue::NotNetwork(g) => ("cli_err.not_network", g),
            BadValue::NotWorkers(g) => ("cli_err.not_workers", g),
        };
        tr!(lang, key, given = given.clone())
    }
}

impl From<String> for CliError {
    fn from(said: String) -> CliError {
        CliError::Said(said)
    }
}

impl From<DbError> for CliError {
    fn from(e: DbError) -> CliError {
        CliError::Said(e.to_string())
    }
}

impl From<BadOption> for CliError {
    fn from(e: BadOption) -> CliError {
        CliError::BadOption(e)
    }
}

impl CliError {
    /// The refusal in `lang`, without the program's name.
    pub fn words(&self, lang: Lang) -> String {
        match self {
            CliError::Said(s) => s.clone(),
            CliError::NoDatabaseFile(p) => {
                tr!(lang, "cli_err.no_database_file", file = p.display().to_string())
            }
            CliError::NoTournament(t) => tr!(lang, "cli_err.no_tournament", tournament = *t),
            CliError::NoRound { tournament, round } => {
                tr!(lang, "cli_err.no_round", tournament = *tournament, round = *round)
            }
            CliError::NotPublished { tournament, round } => {
                tr!(lang, "cli_err.not_published", tournament = *tournament, round = *round)
            }
            CliError::NotTeamEvent(t) => tr!(lang, "cli_err.not_team_event", tournament = *t),
            CliError::NoMatch { tournament, match_id } => {
                tr!(lang, "cli_err.no_match", tournament = *tournament, match_id = *match_id)
            }
            CliError::MatchNotReady { match_id, why } => {
                tr!(lang, "cli_err.match_not_ready", match_id = *match_id, why = lang.match_not_ready(why))
            }
            CliError::BadOption(e) => e.words(lang, e.opt.flag()),
            CliError::CannotWrite { file, error } if file.as_os_str() == "-" => {
                tr!(lang, "cli_err.cannot_write_stdout", error = error.clone())
            }
            CliError::CannotWrite { file, error } => {
                tr!(lang, "cli_err.cannot_write", file = file.display().to_string(), error = error.clone())
            }
            CliError::PrintingFailed(error) => tr!(lang, "cli_err.printing_failed", error = error.clone()),
            CliError::HasTournaments(database) => {
                tr!(lang, "cli_err.has_tournaments", database = database.clone())
            }
            CliError::BadRole => lang.t("cli_err.bad_role").to_string(),
            CliError::MigrateTargets => lang.t("cli_err.migrate_targets").to_string(),
            CliError::NameTaken(username) => tr!(lang, "cli_err.name_taken", username = username.clone()),
            CliError::NoAccount(username) => tr!(lang, "cli_err.no_account", username = username.clone()),
            CliError::BadValue { flag, bad } => {
                tr!(lang, "cli_err.bad_value", flag = *flag, problem = bad.words(lang))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::documents::{parse_lang, parse_per_page};

    /// One of each refusal, for the tests below.
    fn every_refusal() -> Vec<CliError> {
        let (tournament, round) = (3, 2);
        vec![
            CliError::NoDatabaseFile("office.db".into()),
            CliError::NoTournament(tournament),
            CliError::NoRound { tournament, round },
            CliError::NotPublished { tournament, round },
            CliError::NotTeamEvent(tournament),
            CliError::NoMatch { tournament, match_id: 9 },
            CliError::MatchNotReady { match_id: 9, why: MatchRefusal::NoStart },
            CliError::BadOption(parse_per_page("3").unwrap_err()),
            CliError::CannotWrite { file: "out.pdf".into(), error: "denied".into() },
            CliError::CannotWrite { file: "-".into(), error: "closed".into() },
            CliError::PrintingFailed("font".into()),
            CliError::HasTournaments("office.db".into()),
            CliError::BadRole,
            CliError::NameTaken("li".into()),
            CliError::NoAccount("li".into()),
            CliError::MigrateTargets,
            CliError::BadValue { flag: "--idle-timeout", bad: BadValue::NotDuration("ten".into()) },
            CliError::BadValue { flag: "--idle-timeout", bad: BadValue::ZeroDuration("0".into()) },
            CliError::BadValue { flag: "--idle-timeout", bad: BadValue::UnderASecond("5ms".into()) },
            CliError::BadValue { flag: "--public-url", bad: BadValue::NoScheme("x".into()) },
            CliError::BadValue { flag: "--public-url", bad: BadValue::NoHost("https://".into()) },
            CliError::BadValue { flag: "--public-url", bad: BadValue::NotUrl("https://a b".into()) },
            CliError::BadValue { flag: "--trusted-proxy", bad: BadValue::NotNetwork("proxy".into()) },
        ]
    }

    /// Operations (no rule article): every refusal of the command line has its words in both
    /// languages, each its own, the Chinese with full-width punctuation and no English left.
    #[test]
    fn every_refusal_is_worded_in_both_languages() {
        let mut seen = std::collections::BTreeSet::new();
        for e in every_refusal() {
            for lang in [Lang::Zh, Lang::En] {
                let w = e.words(lang);
                assert!(!w.is_empty() && !w.contains("cli_err") && !w.contains('{'), "{e:?}: {w}");
                assert!(seen.insert(w.clone()), "{e:?}: said twice: {w}");
            }
            let zh = e.words(Lang::Zh);
            assert!(!zh.contains(": ") && !zh.contains("; "), "{e:?}: half-width punctuation in {zh}");
            for english in ["tournament", "round", "cannot", "must", "not a"] {
                assert!(!zh.contains(english), "{e:?}: {english} in {zh}");
            }
        }
    }

    /// Operations (no rule article): the refusals say what was asked for, in the user's words.
    #[test]
    fn refusals_name_what_was_asked_for() {
        let no_round = CliError::NoRound { tournament: 3, round: 2 };
        assert_eq!(no_round.words(Lang::Zh), "赛事3没有第2轮");
        assert_eq!(no_round.words(Lang::En), "tournament 3 has no round 2");
        let per_page = CliError::from(parse_per_page("3").unwrap_err());
        assert_eq!(per_page.words(Lang::Zh), "参数“--per-page”只能是 2 或 4，不能是“3”。");
        assert_eq!(per_page.words(Lang::En), "“--per-page” must be 2 or 4, not “3”.");
        let lang = CliError::from(parse_lang("fr").unwrap_err());
        assert_eq!(lang.words(Lang::Zh), "参数“--lang”只能是 zh 或 en，不能是“fr”。");
        let missing = CliError::NoDatabaseFile("赛事.db".into());
        assert_eq!(missing.words(Lang::Zh), "数据库文件 赛事.db 不存在（请用 --db 指定路径）");
        assert_eq!(missing.words(Lang::En), "赛事.db: no such database file (use --db PATH)");
    }
}
