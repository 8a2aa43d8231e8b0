//! The SGF check in the reader's language: the reader's errors (`rules::sgf::SgfError`) and
//! warnings, the replay's notes, its first illegal move and its agreement with RE\[\], and why
//! an upload was refused (`domain::results::SgfCheckError`). The rules crate and the domain
//! return these typed values with their data (positions, property values, move numbers);
//! each renderer here is a match over the variants naming catalog keys, used by the game page
//! and `tengen sgf check` alike.

use super::tr;
use super::Lang;
use crate::domain::results::SgfCheckError;
use rules::game::{IllegalMove, Move};
use rules::sgf::{
    Agreement, IllegalAt, Incomparable, KomiError, Note, Pos, SgfError, SgfErrorKind, Warning, WarningKind,
};

impl Lang {
    /// Why an upload was refused: too large, unreadable (with its position) or a board the
    /// replay cannot set up.
    pub fn sgf_check_error(self, e: &SgfCheckError) -> String {
        match e {
            SgfCheckError::TooLarge { max_kb } => tr!(self, "sgf_check.too_large", max_kb),
            SgfCheckError::Unreadable(e) => self.sgf_error(e),
            SgfCheckError::BoardSize { size } => tr!(self, "sgf_check.board_size", size),
        }
    }

    /// A reader's error with its place: "3:3: …" / "第3行第3列：…".
    pub fn sgf_error(self, e: &SgfError) -> String {
        self.sgf_at(e.pos, &self.sgf_error_kind(&e.kind))
    }

    /// A message after its line and column.
    fn sgf_at(self, pos: Pos, message: &str) -> String {
        tr!(self, "sgf.at", line = pos.line, col = pos.col, message)
    }

    /// Why a file cannot be read, without its place.
    pub fn sgf_error_kind(self, k: &SgfErrorKind) -> String {
        use SgfErrorKind as K;
        match k {
            K::Empty => self.t("sgf_err.empty").into(),
            K::NoGameTree => self.t("sgf_err.no_game_tree").into(),
            K::TreeWithoutNode => self.t("sgf_err.tree_without_node").into(),
            K::UnmatchedClose => self.t("sgf_err.unmatched_close").into(),
            K::EmptyTree => self.t("sgf_err.empty_tree").into(),
            K::EndAfterIdent { ident } => tr!(self, "sgf_err.end_after_ident", ident),
            K::ExpectedValue { ident, found } => {
                tr!(self, "sgf_err.expected_value", found = quoted(*found), ident)
            }
            K::PropertyOutsideNode { ident } => tr!(self, "sgf_err.outside_node", ident),
            K::UnclosedValue { ident } => tr!(self, "sgf_err.unclosed_value", ident),
            K::StrayBracket => self.t("sgf_err.stray_bracket").into(),
            K::ValueWithoutIdent => self.t("sgf_err.value_without_ident").into(),
            K::UnexpectedChar { found, after_value: false } => {
                tr!(self, "sgf_err.unexpected_char", found = quoted(*found))
            }
            K::UnexpectedChar { found, after_value: true } => {
                tr!(self, "sgf_err.unexpected_char_after_value", found = quoted(*found))
            }
            K::UnclosedTree { open } => tr!(self, "sgf_err.unclosed_tree", line = open.line, col = open.col),
            K::GameTwice => self.t("sgf_err.game_twice").into(),
            K::NotGo { value } => tr!(self, "sgf_err.not_go", value),
            K::BadGame { value } => tr!(self, "sgf_err.bad_game", value),
            K::NonSquare { width, height } => tr!(self, "sgf_err.non_square", width, height),
            K::NotASize { value } => tr!(self, "sgf_err.not_a_size", value),
            K::SizeOutOfRange { size, min, max } => tr!(self, "sgf_err.size_range", size, min, max),
            K::Komi(e) => self.komi_error(e),
            K::KomiValues => self.t("sgf_err.komi_values").into(),
            K::HandicapOutOfRange { value } => tr!(self, "sgf_err.handicap_range", value),
            K::HandicapNotNumber { value } => tr!(self, "sgf_err.handicap_nan", value),
            K::NotPoints { shown } => tr!(self, "sgf_err.not_points", property = shown),
            K::SetupOffBoard { ident, point, size } => {
                tr!(self, "sgf_err.setup_off_board", ident, point, size)
            }
            K::BadPlayer { shown } => tr!(self, "sgf_err.bad_player", property = shown),
            K::NotAMove { shown } => tr!(self, "sgf_err.not_a_move", property = shown),
            K::TwoMoves => self.t("sgf_err.two_moves").into(),
        }
    }

    /// Why a KM value is not komi.
    pub fn komi_error(self, e: &KomiError) -> String {
        match e {
            KomiError::NotANumber { text } => tr!(self, "komi_err.nan", text),
            KomiError::HundredthsNotQuarters { text } => tr!(self, "komi_err.hundredths", text),
            KomiError::NotAMultiple { text } => tr!(self, "komi_err.multiple", text),
            KomiError::OutOfRange { text } => tr!(self, "komi_err.range", text),
        }
    }

    /// A reader's warning, after its place when it has one.
    pub fn sgf_warning(self, w: &Warning) -> String {
        let m = self.sgf_warning_kind(&w.kind);
        match w.pos {
            Some(p) => self.sgf_at(p, &m),
            None => m,
        }
    }

    fn sgf_warning_kind(self, k: &WarningKind) -> String {
        use WarningKind as K;
        match k {
            K::TextBefore { bytes } => tr!(self, "sgf_warn.text_before", bytes),
            K::TextAfter => self.t("sgf_warn.text_after").into(),
            K::SeveralTrees { count } => tr!(self, "sgf_warn.several_trees", count),
            K::OldFormat { ff } => tr!(self, "sgf_warn.old_format", ff),
            K::Ignored { shown } => tr!(self, "sgf_warn.ignored", property = shown),
            K::UnknownResult { text } => tr!(self, "sgf_warn.unknown_result", text),
            K::TerritoryOffBoard { ident } => tr!(self, "sgf_warn.territory_off_board", ident),
            K::HandicapInferred { handicap, stones } => {
                tr!(self, "sgf_warn.handicap_inferred", handicap, stones)
            }
            K::HandicapMismatch { handicap, stones } => {
                tr!(self, "sgf_warn.handicap_mismatch", handicap, stones)
            }
            K::BytesReplaced { encoding } => tr!(self, "sgf_warn.bytes_replaced", encoding),
            K::EncodingGuessed { encoding } => tr!(self, "sgf_warn.encoding_guessed", encoding),
        }
    }

    /// A note of the replay: setups, play after two passes, double moves, missing dead stones.
    pub fn sgf_note(self, n: &Note) -> String {
        match n {
            Note::SetupRestarts { after_move } => tr!(self, "sgf_note.setup", after_move),
            Note::Resumed { number } => tr!(self, "sgf_note.resumed", number),
            Note::MovesTwice { number, color } => {
                tr!(self, "sgf_note.twice", number, side = self.side(*color))
            }
            Note::NoDeadStone { point } => {
                let at = point.as_deref().unwrap_or(self.t("sgf_illegal.off_board"));
                tr!(self, "sgf_note.no_dead_stone", at)
            }
        }
    }

    /// The first illegal move: "move 5 Black C6 [cb]: ko: immediate recapture".
    pub fn sgf_illegal(self, i: &IllegalAt) -> String {
        let point = match (&i.point, i.mv) {
            (Some(p), _) => p.as_str(),
            (None, Move::Pass) => self.t("sgf_illegal.pass"),
            (None, Move::Play(_)) => self.t("sgf_illegal.off_board"),
        };
        let why = self.illegal_move(i.reason);
        tr!(self, "sgf_illegal.move", number = i.number, side = self.side(i.color), point, sgf = i.sgf, why)
    }

    /// Why a move is refused.
    pub fn illegal_move(self, m: IllegalMove) -> &'static str {
        self.t(match m {
            IllegalMove::GameOver => "illegal.game_over",
            IllegalMove::OffBoard => "illegal.off_board",
            IllegalMove::Occupied => "illegal.occupied",
            IllegalMove::Suicide => "illegal.suicide",
            IllegalMove::Ko => "illegal.ko",
            IllegalMove::Superko => "illegal.superko",
        })
    }

    /// Whether the count agrees with RE\[\], and why not when it cannot be compared.
    pub fn sgf_agreement(self, a: &Agreement) -> String {
        match a {
            Agreement::Agrees => self.t("sgf_agree.agrees").into(),
            Agreement::Disagrees { record, computed } => tr!(self, "sgf_agree.disagrees", record, computed),
            Agreement::NotComparable { reason } => {
                tr!(self, "sgf_agree.not_comparable", reason = self.sgf_incomparable(reason))
            }
        }
    }

    /// Why the count cannot be held against RE\[\].
    pub fn sgf_incomparable(self, r: &Incomparable) -> String {
        match r {
            Incomparable::StoppedAt { number } => tr!(self, "sgf_why.stopped", number),
            Incomparable::UnknownResult { text } => tr!(self, "sgf_why.unknown_result", text),
            Incomparable::NoResult => self.t("sgf_why.no_result").into(),
            Incomparable::Resignation { record } => tr!(self, "sgf_why.resignation", record),
            Incomparable::Time { record } => tr!(self, "sgf_why.time", record),
            Incomparable::Forfeit { record } => tr!(self, "sgf_why.forfeit", record),
            Incomparable::Void => self.t("sgf_why.void").into(),
            Incomparable::Unknown => self.t("sgf_why.unknown").into(),
        }
    }
}

/// A character as the messages show it: quoted and escaped ('1', '\0').
fn quoted(c: char) -> String {
    format!("{c:?}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::board::{Color, Point};

    use crate::i18n::render_check::both;

    fn st(x: &str) -> String {
        x.to_string()
    }

    const AT: Pos = Pos { offset: 10, line: 2, col: 3 };

    fn every_error_kind() -> Vec<SgfErrorKind> {
        use SgfErrorKind as K;
        vec![
            K::Empty,
            K::NoGameTree,
            K::TreeWithoutNode,
            K::UnmatchedClose,
            K::EmptyTree,
            K::EndAfterIdent { ident: st("B") },
            K::ExpectedValue { ident: st("B"), found: '1' },
            K::PropertyOutsideNode { ident: st("B") },
            K::UnclosedValue { ident: st("W") },
            K::StrayBracket,
            K::ValueWithoutIdent,
            K::UnexpectedChar { found: ':', after_value: false },
            K::UnexpectedChar { found: ':', after_value: true },
            K::UnclosedTree { open: AT },
            K::GameTwice,
            K::NotGo { value: st("2") },
            K::BadGame { value: st("x") },
            K::NonSquare { width: st("19"), height: st("13") },
            K::NotASize { value: st("abc") },
            K::SizeOutOfRange { size: st("30"), min: 5, max: 25 },
            K::Komi(KomiError::NotANumber { text: st("abc") }),
            K::Komi(KomiError::HundredthsNotQuarters { text: st("333") }),
            K::Komi(KomiError::NotAMultiple { text: st("5.4") }),
            K::Komi(KomiError::OutOfRange { text: st("999") }),
            K::KomiValues,
            K::HandicapOutOfRange { value: 300 },
            K::HandicapNotNumber { value: st("x") },
            K::NotPoints { shown: st("AB[]") },
            K::SetupOffBoard { ident: st("AB"), point: st("zz"), size: 9 },
            K::BadPlayer { shown: st("PL[X]") },
            K::NotAMove { shown: st("W[z]") },
            K::TwoMoves,
        ]
    }

    #[test]
    fn every_reader_error_renders_in_both_languages() {
        for kind in every_error_kind() {
            both(|l| l.sgf_error(&SgfError { pos: AT, kind: kind.clone() }));
        }
        let e = SgfError { pos: AT, kind: SgfErrorKind::UnclosedValue { ident: st("W") } };
        assert_eq!(
            Lang::En.sgf_error(&e),
            "2:3: the value of W is never closed: no ']' before the end of the file"
        );
        assert_eq!(Lang::Zh.sgf_error(&e), "第2行第3列：W的值没有结束：文件结束前没有“]”");
        for e in [
            SgfCheckError::TooLarge { max_kb: 512 },
            SgfCheckError::Unreadable(e),
            SgfCheckError::BoardSize { size: 30 },
        ] {
            both(|l| l.sgf_check_error(&e));
        }
    }

    #[test]
    fn every_warning_and_note_renders_in_both_languages() {
        use WarningKind as K;
        let kinds = vec![
            K::TextBefore { bytes: 15 },
            K::TextAfter,
            K::SeveralTrees { count: 2 },
            K::OldFormat { ff: 1 },
            K::Ignored { shown: st("TB[x]") },
            K::UnknownResult { text: st("B wins") },
            K::TerritoryOffBoard { ident: st("TW") },
            K::HandicapInferred { handicap: 3, stones: 3 },
            K::HandicapMismatch { handicap: 2, stones: 3 },
            K::BytesReplaced { encoding: st("GBK") },
            K::EncodingGuessed { encoding: st("GBK") },
        ];
        for kind in kinds {
            both(|l| l.sgf_warning(&Warning { pos: Some(AT), kind: kind.clone() }));
            both(|l| l.sgf_warning(&Warning { pos: None, kind: kind.clone() }));
        }
        for n in [
            Note::SetupRestarts { after_move: 3 },
            Note::Resumed { number: 4 },
            Note::MovesTwice { number: 4, color: Color::White },
            Note::NoDeadStone { point: Some(st("C3")) },
            Note::NoDeadStone { point: None },
        ] {
            both(|l| l.sgf_note(&n));
        }
        let twice = Note::MovesTwice { number: 4, color: Color::White };
        assert_eq!(Lang::En.sgf_note(&twice), "move 4: White moves twice in a row");
        assert_eq!(Lang::Zh.sgf_note(&twice), "第4手：白方连下两手");
    }

    #[test]
    fn every_illegal_move_and_agreement_renders_in_both_languages() {
        let reasons = [
            IllegalMove::GameOver,
            IllegalMove::OffBoard,
            IllegalMove::Occupied,
            IllegalMove::Suicide,
            IllegalMove::Ko,
            IllegalMove::Superko,
        ];
        let moves = [
            (Some(st("C6")), Move::Play(Point::new(2, 1))),
            (None, Move::Pass),
            (None, Move::Play(Point::new(25, 25))),
        ];
        for reason in reasons {
            for (point, mv) in moves.clone() {
                let i = IllegalAt {
                    number: 5,
                    color: Color::Black,
                    mv,
                    point,
                    sgf: st("cb"),
                    reason,
                    at: Some(AT),
                };
                both(|l| l.sgf_illegal(&i));
            }
        }
        let ko = IllegalAt {
            number: 5,
            color: Color::Black,
            mv: Move::Play(Point::new(2, 1)),
            point: Some(st("C6")),
            sgf: st("cb"),
            reason: IllegalMove::Ko,
            at: None,
        };
        assert_eq!(Lang::En.sgf_illegal(&ko), "move 5 Black C6 [cb]: ko: immediate recapture");
        assert_eq!(Lang::Zh.sgf_illegal(&ko), "第5手 黑方 C6（cb）：打劫：不得立即提回");
        let r = || st("B+R");
        let mut agreements =
            vec![Agreement::Agrees, Agreement::Disagrees { record: st("W+0.5"), computed: st("0") }];
        agreements.extend(
            [
                Incomparable::StoppedAt { number: 5 },
                Incomparable::UnknownResult { text: st("B wins") },
                Incomparable::NoResult,
                Incomparable::Resignation { record: r() },
                Incomparable::Time { record: r() },
                Incomparable::Forfeit { record: r() },
                Incomparable::Void,
                Incomparable::Unknown,
            ]
            .map(|reason| Agreement::NotComparable { reason }),
        );
        for a in agreements {
            both(|l| l.sgf_agreement(&a));
        }
    }
}
