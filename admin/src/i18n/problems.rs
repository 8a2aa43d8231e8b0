//! The entrant problems in the reader's language: `domain::entrant::ErrorCode` and
//! `FieldError`, the rules crate's `RulingError`, a typed text's `TextProblem`, the settings'
//! `SettingsProblem` and the refusals of `tengen restore` (`RestoreRefusal`): values that cannot
//! word themselves. The domain returns these typed values with their data; each renderer here
//! is a match over the variants naming catalog keys, used by the web pages and (in English) the
//! command line. The files' problems are worded beside them (`formats::words`, `sheets`).

use super::tr;
use super::Lang;
use crate::db::backup::RestoreRefusal;
use crate::domain::entrant::{field, ErrorCode, FieldError};
use crate::domain::settings::{SettingsProblem, MAX_ROUNDS, MAX_TEXT};
use crate::domain::text::TextProblem;
use rules::rulings::RulingError;

impl Lang {
    /// An entrant field's problem, without the field's label (shown beside the field).
    pub fn entrant_error(self, e: &ErrorCode) -> String {
        match e {
            ErrorCode::Required => self.t("ent_err.required").into(),
            ErrorCode::NameMissing => self.t("ent_err.name_missing").into(),
            ErrorCode::NamePartMissing => self.t("ent_err.name_part_missing").into(),
            ErrorCode::TooLong { max } => tr!(self, "err.too_long", max),
            ErrorCode::ControlCharacters => self.t("ent_err.control_chars").into(),
            ErrorCode::NotChinese => self.t("ent_err.not_chinese").into(),
            ErrorCode::NotLatin => self.t("ent_err.not_latin").into(),
            ErrorCode::RankInvalid { input } => tr!(self, "ent_err.rank_invalid", input),
            ErrorCode::RankOutOfRange { input } => tr!(self, "ent_err.rank_out_of_range", input),
            ErrorCode::RatingInvalid { input } => tr!(self, "ent_err.rating_invalid", input),
            ErrorCode::RatingOutOfRange { min, max } => tr!(self, "ent_err.rating_range", min, max),
            ErrorCode::DateInvalid { input } => tr!(self, "ent_err.date_invalid", input),
            ErrorCode::DateInFuture => self.t("ent_err.date_future").into(),
            ErrorCode::DateTooEarly => self.t("ent_err.date_too_early").into(),
            ErrorCode::SexInvalid { input } => tr!(self, "ent_err.sex_invalid", input),
            ErrorCode::Conflict { first, second } => tr!(self, "ent_err.conflict", first, second),
            ErrorCode::StatusInvalid { input } => tr!(self, "ent_err.status_invalid", input),
        }
    }

    /// An entrant field's label, as the entrant form shows it; "Row" for a whole import row.
    pub fn entrant_field(self, name: &str) -> &'static str {
        self.t(match name {
            field::FAMILY_NAME_ZH => "e.family_name_zh",
            field::GIVEN_NAME_ZH => "e.given_name_zh",
            field::FAMILY_NAME_LATIN => "e.family_name_latin",
            field::GIVEN_NAME_LATIN => "e.given_name_latin",
            field::RANK => "e.rank",
            field::RATING => "e.rating",
            field::UNIT => "e.unit",
            field::REGION => "e.region",
            field::BIRTH_DATE => "e.birth_date",
            field::SEX => "e.sex",
            field::NOTES => "e.notes",
            field::EGD_PIN => "e.egd_pin",
            field::FEDERATION_ID => "e.federation_id",
            field::STATUS => "e.status",
            _ => "e.row",
        })
    }

    /// "Rank: …" / "段位：…", for lists where the field is not visible (import reports).
    pub fn field_error_labelled(self, e: &FieldError) -> String {
        tr!(
            self,
            "ent_err.labelled",
            field = self.entrant_field(e.field),
            error = self.entrant_error(&e.code)
        )
    }

    /// Several labelled problems as one text: spaced in English, run on in Chinese (the
    /// catalog's `ent_err.then` joins each to the next).
    pub(crate) fn field_errors_labelled(self, errors: &[FieldError]) -> String {
        let why = errors.iter().map(|e| self.field_error_labelled(e));
        why.reduce(|a, b| tr!(self, "ent_err.then", first = a, second = b)).unwrap_or_default()
    }
}

impl Lang {
    /// Why a set of rulings cannot be applied, naming the ruling by its place and kind.
    pub fn ruling_error(self, e: &RulingError) -> String {
        match e {
            RulingError::MissingSide { index, kind } => {
                tr!(self, "ruling_err.missing_side", number = index + 1, kind = self.ruling_kind(*kind))
            }
            RulingError::UnexpectedSide { index, kind } => {
                tr!(self, "ruling_err.unexpected_side", number = index + 1, kind = self.ruling_kind(*kind))
            }
            RulingError::CardsNotInUse { index, kind } => {
                tr!(self, "ruling_err.cards_not_in_use", number = index + 1, kind = self.ruling_kind(*kind))
            }
            RulingError::Zero { index } => tr!(self, "ruling_err.zero", number = index + 1),
            RulingError::AlreadySentOff { index, player } => {
                tr!(self, "ruling_err.already_sent_off", number = index + 1, player)
            }
            RulingError::TooManyPriorYellows { player, yellows } => {
                tr!(self, "ruling_err.too_many_prior_yellows", player, yellows)
            }
        }
    }
}

impl Lang {
    /// What is wrong with a typed text (`domain::text`, the rule of every field a user types).
    pub fn text_problem(self, p: TextProblem) -> String {
        match p {
            TextProblem::TooLong { max } => tr!(self, "err.too_long", max),
            TextProblem::Invisible => self.t("err.control_chars").to_string(),
        }
    }

    /// Why `tengen restore` took nothing from a copy (the live database is as it was).
    pub fn restore_refusal(self, r: &RestoreRefusal) -> String {
        match r {
            RestoreRefusal::NotAFile(f) => tr!(self, "restore.not_a_file", file = f.display()),
            RestoreRefusal::NotTengen(f, why) => tr!(self, "restore.not_tengen", file = f.display(), why),
            RestoreRefusal::SqliteIntoPostgres(f) => tr!(self, "restore.sqlite_into_pg", file = f.display()),
            RestoreRefusal::ArchiveIntoSqlite(f) => {
                tr!(self, "restore.archive_into_sqlite", file = f.display())
            }
            RestoreRefusal::Damaged(f, found) => tr!(self, "restore.damaged", file = f.display(), found),
            RestoreRefusal::Newer(f, versions) => tr!(self, "restore.newer", file = f.display(), versions),
            RestoreRefusal::SchemaDiffers(f, diff) => tr!(self, "restore.schema", file = f.display(), diff),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::egf::{EgfError, EgfField, EgfProblem, EgfRefusal};
    use crate::formats::entrants_csv::{ImportError, ImportWarning, MissingColumn, RowResult};
    use crate::formats::opengotha::read::TextPosition;
    use crate::formats::opengotha::read::{OgError, OgErrorKind, OgRole};
    use crate::formats::words::MB;
    use crate::print::DataProblem;

    #[test]
    fn every_restore_refusal_is_worded_in_both_languages() {
        let f = || std::path::PathBuf::from("copy.sqlite");
        for r in [
            RestoreRefusal::NotAFile(f()),
            RestoreRefusal::NotTengen(f(), s("file is not a database")),
            RestoreRefusal::SqliteIntoPostgres(f()),
            RestoreRefusal::ArchiveIntoSqlite(f()),
            RestoreRefusal::Damaged(f(), s("Page 7: btreeInitPage() returns error code 11")),
            RestoreRefusal::Newer(f(), s("20990101000000")),
            RestoreRefusal::SchemaDiffers(f(), s("missing column entrants.notes TEXT")),
        ] {
            let (en, zh) = both(|l| l.restore_refusal(&r));
            assert!(en.contains("copy.sqlite") && zh.contains("copy.sqlite"), "{en} / {zh}");
            assert!(en.contains("Nothing was restored") || en.contains("nothing was restored"), "{en}");
            assert!(zh.contains("未恢复任何内容"), "{zh}");
        }
    }

    use crate::i18n::render_check::both;

    fn s(x: &str) -> String {
        x.to_string()
    }

    fn every_code() -> Vec<ErrorCode> {
        vec![
            ErrorCode::Required,
            ErrorCode::NameMissing,
            ErrorCode::NamePartMissing,
            ErrorCode::TooLong { max: 40 },
            ErrorCode::ControlCharacters,
            ErrorCode::NotChinese,
            ErrorCode::NotLatin,
            ErrorCode::RankInvalid { input: s("3x") },
            ErrorCode::RankOutOfRange { input: s("31k") },
            ErrorCode::RatingInvalid { input: s("abc") },
            ErrorCode::RatingOutOfRange { min: -900, max: 4000 },
            ErrorCode::DateInvalid { input: s("04/03/2001") },
            ErrorCode::DateInFuture,
            ErrorCode::DateTooEarly,
            ErrorCode::SexInvalid { input: s("x") },
            ErrorCode::Conflict { first: s("王"), second: s("李") },
            ErrorCode::StatusInvalid { input: s("gone") },
        ]
    }

    #[test]
    fn every_entrant_error_renders_in_both_languages() {
        for code in every_code() {
            both(|l| l.entrant_error(&code));
        }
        let (en, zh) = both(|l| l.entrant_error(&ErrorCode::RankInvalid { input: s("3x") }));
        assert_eq!(en, "“3x” is not a rank; write e.g. 3k, 5d, 1p, 3级, 5段 or 职业1段.");
        assert_eq!(zh, "无法识别段位“3x”，可写作 3级、5段、职业1段、3k、5d、1p。");
    }

    #[test]
    fn every_field_has_a_label_and_labelled_errors_read_naturally() {
        let mut fields = field::ALL.to_vec();
        fields.extend([field::STATUS, field::ROW]);
        for f in fields {
            both(|l| l.entrant_field(f).to_string());
        }
        let e = FieldError::new(field::RATING, ErrorCode::RatingInvalid { input: s("abc") });
        assert_eq!(Lang::En.field_error_labelled(&e), "Rating: “abc” is not a whole number.");
        assert_eq!(Lang::Zh.field_error_labelled(&e), "等级分：“abc”不是整数。");
    }

    /// User input that looks like a placeholder is echoed as typed, not filled in.
    #[test]
    fn echoed_input_is_not_a_placeholder() {
        let e = ErrorCode::Conflict { first: s("{1}"), second: s("x") };
        assert_eq!(Lang::En.entrant_error(&e), "Two columns disagree: “{1}” and “x”.");
    }

    /// A parsed form's refusals read with their field's label, and long typed text is quoted
    /// clipped (the entrant's value types carry the data, never a sentence).
    #[test]
    fn parsed_form_refusals_read_labelled_and_clipped() {
        use crate::domain::entrant::{EntrantForm, Rank};
        let form = EntrantForm { family_name_zh: s("王"), rank: s("3x"), ..Default::default() };
        let errs = form.parse_on(chrono::NaiveDate::from_ymd_opt(2026, 6, 1).unwrap()).unwrap_err();
        let rank = errs.iter().find(|e| e.field == field::RANK).unwrap();
        assert!(Lang::En.field_error_labelled(rank).starts_with("Rank: “3x”"));
        assert!(Lang::Zh.field_error_labelled(rank).starts_with("段位："));
        let long = Rank::parse(&"x".repeat(100)).unwrap_err();
        let msg = Lang::En.entrant_error(&long);
        assert!(msg.chars().count() < 120 && msg.contains('…'), "{msg}");
    }

    #[test]
    fn every_csv_problem_renders_in_both_languages() {
        let errors = vec![
            FieldError::new(field::RANK, ErrorCode::RankInvalid { input: s("3x") }),
            FieldError::new(field::SEX, ErrorCode::SexInvalid { input: s("x") }),
        ];
        let row = |name: &str| RowResult {
            line: 5,
            input: None,
            errors: errors.clone(),
            display_name: s(name),
            status: Default::default(),
            duplicate_of: None,
            group: String::new(),
        };
        let (en, zh) = both(|l| l.import_row(&row("王伟")));
        assert!(en.starts_with("Line 5 (王伟): Rank: “3x”") && en.contains(". Sex: "), "{en}");
        assert!(zh.starts_with("第5行（王伟）：段位：无法识别") && zh.contains("。性别："), "{zh}");
        let (en, zh) = both(|l| l.import_row(&row("")));
        assert!(en.starts_with("Line 5: Rank:") && zh.starts_with("第5行：段位："), "{en} {zh}");
        for w in [
            ImportWarning::UnknownColumn { column: 1, header: s("序号") },
            ImportWarning::LinesBeforeHeader { header_line: 3 },
            ImportWarning::ExtraCells { line: 4 },
            ImportWarning::NoDataRows,
        ] {
            both(|l| l.import_warning(&w));
        }
        let missing = vec![
            MissingColumn::Name,
            MissingColumn::GivenName { family_header: s("姓") },
            MissingColumn::FamilyName { given_header: s("名") },
            MissingColumn::Rank,
        ];
        for e in [
            ImportError::Empty,
            ImportError::TooLarge { size: 6 * MB, max: 5 * MB },
            ImportError::TooManyRows { max: 5000 },
            ImportError::NotText,
            ImportError::InvalidUtf8 { offset: 7 },
            ImportError::MissingColumns(missing),
            ImportError::DuplicateColumn { first: s("姓名"), second: s("name") },
            ImportError::Csv { line: 2, message: s("bad") },
            ImportError::UnclosedQuote { line: 3 },
        ] {
            both(|l| l.import_error(&e));
        }
        let e = ImportError::MissingColumns(vec![MissingColumn::Name, MissingColumn::Rank]);
        assert!(Lang::En.import_error(&e).contains("given_name); and a rank column"));
        assert!(Lang::Zh.import_error(&e).contains("given_name），以及段位列"));
        let big = ImportError::TooLarge { size: 6 * MB + MB / 2, max: 5 * MB };
        assert!(Lang::En.import_error(&big).contains("(6.5 MB); at most 5 MB"));
    }

    #[test]
    fn every_opengotha_problem_renders_in_both_languages() {
        use OgErrorKind as K;
        let kinds = vec![
            K::Empty,
            K::TooLarge { max: 8 * MB },
            K::Encoding { encoding: s("UTF-8") },
            K::Xml { detail: s("bad tag") },
            K::TooDeep { max: 32 },
            K::Truncated { open: s("Games") },
            K::WrongRoot { found: s("Tourney") },
            K::NoRoot,
            K::MissingAttribute { element: s("Player"), attribute: "rank" },
            K::BadAttribute { element: s("Player"), attribute: "rank", value: s("x") },
            K::BadRank { player: s("WANG Wei"), value: s("12X") },
            K::InvalidPlayer {
                player: s("WANG Wei"),
                errors: vec![FieldError::new(field::RATING, ErrorCode::RatingInvalid { input: s("a") })],
            },
            K::DuplicatePlayer { key: s("WANGWEI") },
            K::UnknownPlayer { key: s("NOBODY"), role: OgRole::Black },
            K::UnknownPlayer { key: s("NOBODY"), role: OgRole::White },
            K::UnknownPlayer { key: s("NOBODY"), role: OgRole::Bye },
            K::SamePlayer { key: s("WANGWEI") },
            K::PlayerTwiceInRound { key: s("WANGWEI"), round: 2 },
        ];
        for kind in kinds {
            both(|l| l.og_error(&OgError { kind: kind.clone(), position: None }));
        }
        let at = OgError {
            kind: K::UnknownPlayer { key: s("NOBODY"), role: OgRole::White },
            position: Some(TextPosition { line: 30, column: 1, byte_offset: 0 }),
        };
        assert_eq!(Lang::En.og_error(&at), "Line 30, column 1: A game names an unknown white player NOBODY.");
        assert_eq!(Lang::Zh.og_error(&at), "第30行第1列：对局中的白方NOBODY不在选手名单中。");
    }

    #[test]
    fn every_ruling_error_renders_in_both_languages() {
        use rules::rulings::RulingKind;
        let kind = RulingKind::PenaltyStones { stones: 2 };
        for e in [
            RulingError::MissingSide { index: 0, kind },
            RulingError::UnexpectedSide { index: 1, kind: RulingKind::Draw },
            RulingError::CardsNotInUse { index: 2, kind: RulingKind::YellowCard },
            RulingError::Zero { index: 0 },
            RulingError::AlreadySentOff { index: 3, player: 2 },
            RulingError::TooManyPriorYellows { player: 2, yellows: 2 },
        ] {
            both(|l| l.ruling_error(&e));
        }
        let e = RulingError::MissingSide { index: 0, kind };
        assert_eq!(
            Lang::En.ruling_error(&e),
            "ruling #1 (2 penalty stones) must say which side it is against"
        );
        assert_eq!(Lang::Zh.ruling_error(&e), "第1项判罚（罚2子）须指明针对哪一方");
        assert_eq!(Lang::Zh.ruling_error(&RulingError::Zero { index: 0 }), "第1项：罚0子不是处罚");
    }

    use rules::rulings::{DoubleLossReason, LossReason};
    const LOSS_REASONS: [LossReason; 10] = LossReason::ALL;
    const DOUBLE_LOSS_REASONS: [DoubleLossReason; 5] = DoubleLossReason::ALL;

    /// Every ruling kind (every loss reason, both plural forms) has its words in both languages.
    #[test]
    fn every_ruling_kind_renders_in_both_languages() {
        use rules::rulings::RulingKind as K;
        let mut kinds = vec![
            K::Warning,
            K::Advice,
            K::YellowCard,
            K::RedCard,
            K::PenaltyStones { stones: 1 },
            K::PenaltyStones { stones: 2 },
            K::VoidMove,
            K::ForcedPass,
            K::Draw,
            K::Replay,
            K::NoResult,
            K::Cycle,
            K::OrderError,
            K::MoveQuotaExcess { extra_moves: 1 },
            K::MoveQuotaExcess { extra_moves: 3 },
            K::LastByoYomiTimeout,
        ];
        kinds.extend(LOSS_REASONS.map(|reason| K::Loss { reason }));
        kinds.extend(DOUBLE_LOSS_REASONS.map(|reason| K::DoubleLoss { reason }));
        for k in kinds {
            both(|l| l.ruling_kind(k));
        }
        for r in DOUBLE_LOSS_REASONS {
            both(|l| l.double_loss_reason(r).to_string());
        }
        assert_eq!(Lang::En.ruling_kind(K::PenaltyStones { stones: 1 }), "1 penalty stone");
        assert_eq!(Lang::En.ruling_kind(K::PenaltyStones { stones: 2 }), "2 penalty stones");
        assert_eq!(Lang::Zh.ruling_kind(K::PenaltyStones { stones: 2 }), "罚2子");
        assert_eq!(Lang::En.ruling_kind(K::MoveQuotaExcess { extra_moves: 1 }), "1 move beyond the quota");
        assert_eq!(Lang::Zh.ruling_kind(K::Loss { reason: LOSS_REASONS[2] }), "判负（作弊）");
    }

    /// Each of the five double-loss choices names its cause and its article (seed 000 Arts.
    /// 17.5, 17.6; Arts. 22.3 and 23.1 of the 2002 rules), in both languages, as a ruling and
    /// as a result: no two read alike.
    #[test]
    fn each_double_loss_names_its_cause_and_article() {
        use rules::rulings::{GameResult, RulingKind as K};
        for lang in [Lang::En, Lang::Zh] {
            let kinds: Vec<String> =
                DOUBLE_LOSS_REASONS.iter().map(|r| lang.ruling_kind(K::DoubleLoss { reason: *r })).collect();
            let results: Vec<String> =
                DOUBLE_LOSS_REASONS.iter().map(|r| lang.game_result(&GameResult::double_loss(*r))).collect();
            for texts in [&kinds, &results] {
                let distinct: std::collections::HashSet<&String> = texts.iter().collect();
                assert_eq!(distinct.len(), 5, "{texts:?}");
            }
            for (r, text) in DOUBLE_LOSS_REASONS.iter().zip(&kinds) {
                let art = match (r.article(), lang) {
                    (Some(a), Lang::En) => a.to_string(),
                    (Some(a), Lang::Zh) => {
                        let (n, k) = a.trim_start_matches("Art. ").split_once('.').unwrap();
                        format!("第{n}条第{k}款")
                    }
                    (None, _) => continue,
                };
                assert!(text.contains(&art), "{text} names {art}");
            }
        }
        assert_eq!(
            Lang::Zh.ruling_kind(K::DoubleLoss { reason: DoubleLossReason::StoneMoved }),
            "双方均负（移动之子无法达成一致，第17条第5款）"
        );
    }

    /// Every result method (every referee-loss reason) reads in both languages, as the rules
    /// crate's own texts did before they moved here.
    #[test]
    fn every_game_result_renders_in_both_languages() {
        use rules::board::Color::{Black, White};
        use rules::rulings::GameResult;
        let results = vec![
            (GameResult::resignation(Black), "B+R", "黑中盘胜"),
            (GameResult::time(White), "W+T", "白胜（黑超时）"),
            (GameResult::forfeit(Black), "B+F (forfeit)", "黑胜（白弃权）"),
            (GameResult::draw(), "Draw", "和棋"),
            (
                GameResult::double_loss(DOUBLE_LOSS_REASONS[2]),
                "Double loss (both players late beyond the limit, Art. 22.3)",
                "双方均负（双方迟到超过时限，第22条第3款）",
            ),
            (GameResult::no_result(), "No result", "无胜负"),
            (GameResult::replay(), "Replay ordered", "重赛"),
            (GameResult::bye(Black), "Bye", "轮空"),
            (
                GameResult::loss_of(Black, LossReason::Warnings),
                "W+F (accumulated warnings)",
                "白胜（黑警告累计判负）",
            ),
        ];
        for (r, en, zh) in results {
            assert_eq!(
                (Lang::En.game_result(&r), Lang::Zh.game_result(&r)),
                (en.to_string(), zh.to_string())
            );
        }
        for reason in LOSS_REASONS {
            both(|l| l.game_result(&GameResult::loss_of(White, reason)));
        }
    }

    #[test]
    fn every_egf_refusal_renders_in_both_languages() {
        let rank = EgfRefusal::Rank { entrant: s("王伟"), rank: s("3x") };
        let (en, zh) = both(|l| l.egf_refusal(&rank));
        assert_eq!(en, "王伟: the rank \"3x\" cannot be read; correct it on the entrant's page");
        assert_eq!(zh, "王伟：段位“3x”无法识别，请在该选手的页面上改正");
        both(|l| l.egf_refusal(&EgfRefusal::BelowClassC { basic_minutes: 20, adjusted_minutes: 20 }));
    }

    /// Every problem of the EGF writer, at a place, in a round or in the header, reads in both
    /// languages; the reader is told which place and round.
    #[test]
    fn every_egf_error_renders_in_both_languages() {
        use EgfProblem as P;
        let ascii = |field| P::NotAscii { field, value: s("王"), found: '王' };
        let problems = [
            P::RoundCount { have: 2, first: 3 },
            P::InvalidRank,
            P::NoResult,
            P::NoColour,
            P::OpponentMissing { opponent: 9 },
            P::Disagrees { entry: s("2+/b"), opponent: 2 },
            ascii(EgfField::Surname),
            ascii(EgfField::FirstName),
            ascii(EgfField::Club),
            ascii(EgfField::EventName),
            ascii(EgfField::City),
            ascii(EgfField::Comment),
            P::Country { value: s("China") },
            P::NoSurname,
            P::EndsBeforeStart,
        ];
        for problem in problems {
            for (place, round) in [(None, None), (Some(2), None), (Some(2), Some(1))] {
                let e = EgfError { place, round, problem: problem.clone() };
                let (en, zh) = both(|l| l.data_problem(&DataProblem::Egf(e.clone())));
                if round.is_some() {
                    assert!(
                        en.starts_with("place 2, round 1: ") && zh.starts_with("第2名第1轮："),
                        "{en} / {zh}"
                    );
                }
            }
        }
        let e = EgfError { place: Some(3), round: None, problem: ascii(EgfField::Surname) };
        assert_eq!(
            Lang::En.egf_error(&e),
            "place 3: the surname “王” has “王”, which EGF files cannot hold; give the name in Latin letters (pinyin)"
        );
        assert_eq!(
            Lang::Zh.egf_error(&e),
            "第3名：姓“王”含有“王”，EGF文件无法写入；请填写拉丁字母（拼音）姓名"
        );
        both(|l| l.data_problem(&DataProblem::TiebreakColumns { place: 4 }));
        both(|l| l.data_problem(&DataProblem::WrongData));
    }
}

impl Lang {
    /// A tournament settings problem (`TournamentSettings::validate`), shown beside its field.
    pub fn settings_problem(self, p: &SettingsProblem) -> String {
        match p {
            SettingsProblem::NameRequired => self.t("t.err_name_required").into(),
            SettingsProblem::TextTooLong { .. } => tr!(self, "err.too_long", max = MAX_TEXT),
            SettingsProblem::ControlCharacters { .. } => self.t("err.control_chars").into(),
            SettingsProblem::DateOutOfRange { .. } => self.t("err.date").into(),
            SettingsProblem::EndBeforeStart => self.t("t.err_end_before_start").into(),
            SettingsProblem::RoundsOutOfRange => tr!(self, "err.number_range", min = 1, max = MAX_ROUNDS),
            SettingsProblem::NoTieBreak => self.t("t.err_tiebreak_none").into(),
            SettingsProblem::TieBreakTwice => self.t("t.err_tiebreak_twice").into(),
            SettingsProblem::WarningsOutOfRange => self.t("t.err_warnings").into(),
            SettingsProblem::RuleSet => self.t("t.err_komi_range").into(),
        }
    }
}

#[cfg(test)]
mod settings_tests {
    use super::*;
    use crate::domain::settings::{TieBreak, TournamentSettings};

    #[test]
    fn settings_invariants_are_checked_and_worded() {
        let day = chrono::NaiveDate::from_ymd_opt(2026, 12, 5).unwrap();
        let mut s = TournamentSettings::defaults(day, crate::machine::zone());
        s.name_zh = "天元杯".into();
        assert_eq!(s.validate(), vec![]);
        let mut bad = s.clone();
        bad.name_zh.clear();
        bad.venue = "x".repeat(MAX_TEXT + 1);
        bad.end_date = chrono::NaiveDate::from_ymd_opt(2026, 12, 4).unwrap();
        bad.rounds = 0;
        bad.tiebreaks = vec![TieBreak::Sos, TieBreak::Sos];
        bad.ruleset.warnings_to_loss = Some(21);
        bad.ruleset.komi_q = 4 * 51;
        let problems = bad.validate();
        assert_eq!(
            problems,
            vec![
                SettingsProblem::TextTooLong { field: "venue" },
                SettingsProblem::NameRequired,
                SettingsProblem::EndBeforeStart,
                SettingsProblem::RoundsOutOfRange,
                SettingsProblem::TieBreakTwice,
                SettingsProblem::WarningsOutOfRange,
                SettingsProblem::RuleSet,
            ]
        );
        let mut none = s.clone();
        none.tiebreaks.clear();
        none.start_date = chrono::NaiveDate::from_ymd_opt(1999, 1, 1).unwrap();
        assert_eq!(
            none.validate(),
            vec![SettingsProblem::DateOutOfRange { field: "start_date" }, SettingsProblem::NoTieBreak]
        );
        for lang in [Lang::Zh, Lang::En] {
            for p in problems.iter().chain(none.validate().iter()) {
                let t = lang.settings_problem(p);
                assert!(!t.is_empty() && !t.contains('{') && !t.contains("t.err"), "{t}");
            }
        }
        assert_eq!(SettingsProblem::EndBeforeStart.field(), "end_date");
    }
}
