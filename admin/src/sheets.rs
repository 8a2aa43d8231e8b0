//! The plain data a document is made from: the rows of sheets, lists and result files (the
//! player, the pairing and standings lines, a round's result), and what keeps a document from
//! being made (`PrintError`, `DataProblem`, the EGF file's refusals and errors) with their
//! words. `print` (the PDFs) and `formats` (the CSV and EGF files) both fill and read these, so
//! they live here, used by both and using neither.

use crate::i18n::{tr, Lang};

/// What can go wrong while printing.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PrintError {
    /// The font could not be read or subset.
    #[error("font: {0}")]
    Font(String),
    /// printpdf reported an error while writing the document.
    #[error("PDF: {0}")]
    Pdf(String),
    /// The data cannot be printed as given: which row and why, typed; the reader's words are
    /// `Lang::data_problem`'s (`Display` is its English, for logs).
    #[error(transparent)]
    Invalid(#[from] DataProblem),
}

/// What in the tournament's data keeps a document from being made (`Display`: its English,
/// `Lang::data_problem`, for logs).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", Lang::En.data_problem(self))]
pub enum DataProblem {
    /// The EGF results file cannot be written: where and why.
    Egf(EgfError),
    /// The tournament cannot go to the EGF rating list at all.
    EgfRefused(EgfRefusal),
    /// Rows of one table carry different tie-break columns (`place`: the first that differs).
    TiebreakColumns { place: u32 },
    /// The loaded data is not the document's (a mistake of the caller, not of the data).
    WrongData,
}

/// A player as printed on sheets and lists.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SheetPlayer {
    /// 张伟 (may be empty for players without a Chinese name).
    pub name_zh: String,
    /// "ZHANG Wei", "Müller Anna" (may be empty).
    pub name_latin: String,
    /// The rank, worded by the document's `Lang` ("业余5段" / "5d"); `None` when the stored
    /// rank cannot be read, then printed as stored.
    pub rank: Option<crate::domain::entrant::Rank>,
    /// The stored rank, printed when `rank` is `None`.
    pub rank_stored: String,
    /// Club, school, city or province team (单位).
    pub unit: String,
}

impl SheetPlayer {
    /// The sheet view of an entrant: both full names, the rank, the unit.
    pub fn from_entrant(e: &crate::domain::entrant::EntrantInput) -> SheetPlayer {
        SheetPlayer {
            name_zh: e.full_name_zh(),
            name_latin: e.full_name_latin(),
            rank: Some(e.rank),
            rank_stored: e.rank.notation(),
            unit: e.unit.clone(),
        }
    }

    /// Both names, the one of `lang` first: "张伟 Zhang Wei" / "Zhang Wei 张伟".
    pub fn display_name(&self, lang: Lang) -> String {
        let zh = self.name_zh.trim();
        let la = self.name_latin.trim();
        match (zh.is_empty(), la.is_empty()) {
            (true, _) => la.to_string(),
            (false, true) => zh.to_string(),
            (false, false) => match lang {
                Lang::Zh => format!("{zh} {la}"),
                Lang::En => format!("{la} {zh}"),
            },
        }
    }

    /// The name of `lang`, or the other one.
    pub fn primary_name(&self, lang: Lang) -> &str {
        let (a, b) = match lang {
            Lang::Zh => (self.name_zh.trim(), self.name_latin.trim()),
            Lang::En => (self.name_latin.trim(), self.name_zh.trim()),
        };
        if a.is_empty() {
            b
        } else {
            a
        }
    }

    /// The other name, if there is one and it differs from [`SheetPlayer::primary_name`].
    pub fn secondary_name(&self, lang: Lang) -> &str {
        let p = self.primary_name(lang);
        [self.name_zh.trim(), self.name_latin.trim()]
            .into_iter()
            .find(|n| !n.is_empty() && *n != p)
            .unwrap_or("")
    }

    /// The rank in `lang` (as stored when it cannot be read).
    pub fn rank(&self, lang: Lang) -> String {
        match self.rank {
            Some(r) => lang.rank(r),
            None => self.rank_stored.trim().to_string(),
        }
    }

    /// The name for ordering (`domain::names`): the Chinese name, its first characters read
    /// as a surname, and the Latin one.
    pub(crate) fn name(&self) -> crate::domain::names::Name<'_> {
        crate::domain::names::Name {
            family_zh: self.name_zh.trim(),
            family_latin: self.name_latin.trim(),
            ..Default::default()
        }
    }
}

/// One line of a pairing list.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PairingRow {
    /// The table's hall number (the group's own table number in an event of one group).
    pub table: u32,
    /// In an event of several groups, the group's own table number (the hall's is `table`).
    pub group_table: Option<u32>,
    /// The group's name, on the event's hall-wide list of several groups (empty otherwise).
    pub group: String,
    pub black: SheetPlayer,
    pub white: SheetPlayer,
    pub handicap: u8,
    /// Colours decided at the board: then `black` is the player who guesses and `white` the
    /// one who holds the stones.
    pub nigiri: bool,
    /// The result when known ("B+R", "W+3¼", "黑中盘胜"), else empty.
    pub result: String,
    /// A replay (重赛): the game it replays at this table.
    pub replay_of: Option<i32>,
    /// The game was replayed: its replay is another row at this table.
    pub replayed: bool,
}

/// A player without a game this round, on a pairing list.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Bye {
    pub player: SheetPlayer,
    /// The group's name, on the event's hall-wide list of several groups (empty otherwise), as
    /// [`PairingRow::group`]: a bye on the hall's list says whose group's bye it is.
    pub group: String,
}

/// One line of the standings.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StandingRow {
    pub place: u32,
    pub name: String,
    pub rank: String,
    pub unit: String,
    /// Main score as printed ("5", "4½", "McMahon 36").
    pub score: String,
    /// Tie-break columns in order: (label, value text), e.g. ("SOS", "27"). Every row must
    /// have the same labels in the same order.
    pub tiebreaks: Vec<(String, String)>,
    /// Withdrawn as of the round counted (退赛): marked beside the name, as the players list
    /// marks it.
    pub withdrawn: bool,
    /// The EGF rating before and after the event in whole points (`domain::gor`), once an
    /// organizer computed them; the standings CSV's last two columns.
    pub gor: Option<(i64, i64)>,
}

/// Which colour a player had.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Colour {
    Black,
    White,
}

/// A game's outcome for one player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Win,
    Loss,
    Jigo,
    /// Not played yet, or no result entered.
    Unknown,
}

/// One player's game in one round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RoundResult {
    /// The opponent's place in the same table (1-based); `None` when the player had no game:
    /// then `Win` is a bye with a point, `Jigo` a bye with half a point, `Loss` an absence.
    pub opponent: Option<u32>,
    pub outcome: Outcome,
    pub colour: Option<Colour>,
    pub handicap: u8,
    /// Not played on the board (a forfeit, lateness beyond the limit): "12+!/b".
    pub forfeit: bool,
    /// Both players lost (双方均负): "12×/b" for each.
    pub double_loss: bool,
}

impl RoundResult {
    /// A game against the player numbered `opponent`, played on the board.
    pub fn game(opponent: u32, outcome: Outcome, colour: Option<Colour>, handicap: u8) -> RoundResult {
        RoundResult {
            opponent: Some(opponent),
            outcome,
            colour,
            handicap,
            forfeit: false,
            double_loss: false,
        }
    }

    /// A bye or absence (no opponent).
    pub fn no_game(outcome: Outcome) -> RoundResult {
        RoundResult { opponent: None, outcome, colour: None, handicap: 0, forfeit: false, double_loss: false }
    }

    /// The entry as the EGF's rating list rates it: only games played on the board. A
    /// forfeit is a free round for both (the winner's `0+`, the loser's `0-`), and so is a
    /// double loss (`0-` for both); the format has no sign for them. The `.h9` file and the
    /// ratings after the event (`office::ratings`) both read games through this.
    pub fn as_rated(&self) -> RoundResult {
        match (self.forfeit || self.double_loss, self.outcome) {
            (true, Outcome::Win) if !self.double_loss => RoundResult::no_game(Outcome::Win),
            (true, _) => RoundResult::no_game(Outcome::Loss),
            (false, _) => *self,
        }
    }

    /// The compact notation of crosstables and EGF files: "12+/b", "3-/w2", "7=/b", "0+", "0-";
    /// an unknown result is "?", a forfeit "12+!/b", a double loss "12×/b".
    pub fn notation(&self) -> String {
        let sym = match (self.outcome, self.double_loss) {
            (_, true) => "×",
            (Outcome::Win, _) => "+",
            (Outcome::Loss, _) => "-",
            (Outcome::Jigo, _) => "=",
            (Outcome::Unknown, _) => "?",
        };
        let sym = if self.forfeit && self.opponent.is_some() { format!("{sym}!") } else { sym.to_string() };
        match self.opponent {
            None => format!("0{sym}"),
            Some(o) => {
                let col = match self.colour {
                    Some(Colour::Black) => "/b",
                    Some(Colour::White) => "/w",
                    None => "",
                };
                let h = if self.handicap > 0 && self.colour.is_some() {
                    self.handicap.to_string()
                } else {
                    String::new()
                };
                format!("{o}{sym}{col}{h}")
            }
        }
    }
}

/// The tie-break labels shared by all rows, or an error naming the first row that differs.
pub(crate) fn tiebreak_labels<'a>(
    rows: impl Iterator<Item = (u32, &'a [(String, String)])>,
) -> Result<Vec<String>, PrintError> {
    let mut labels: Option<Vec<String>> = None;
    for (place, tb) in rows {
        let these: Vec<String> = tb.iter().map(|(l, _)| l.clone()).collect();
        match &labels {
            None => labels = Some(these),
            Some(l) if *l == these => {}
            Some(l) => {
                tracing::debug!("place {place}: tie-break columns {these:?} differ from {l:?}");
                return Err(DataProblem::TiebreakColumns { place }.into());
            }
        }
    }
    Ok(labels.unwrap_or_default())
}

/// Why the tournament's data makes no EGF file, with what the message names; the words are
/// the catalog's (`Lang::egf_refusal`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EgfRefusal {
    /// An entrant's stored rank cannot be read (`entrant` as the lists show the name).
    Rank { entrant: String, rank: String },
    /// The time control is below EGF class C (25 min basic, 30 min adjusted).
    BelowClassC { basic_minutes: u32, adjusted_minutes: u32 },
}

/// Where the EGF file cannot be written and why; worded by `Lang::egf_error`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EgfError {
    /// The player's place in the list (from 1); `None` for the file's header.
    pub place: Option<usize>,
    /// The round of the player's entry (from 1), when the problem is one game's.
    pub round: Option<usize>,
    pub problem: EgfProblem,
}

/// A text of the file that must be ASCII.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EgfField {
    Surname,
    FirstName,
    Club,
    EventName,
    City,
    Comment,
}

/// What is wrong (see [`EgfError`] for where).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EgfProblem {
    /// The player has `have` round entries, place 1 has `first`.
    RoundCount {
        have: usize,
        first: usize,
    },
    InvalidRank,
    NoResult,
    /// A handicap event's game without a colour: its handicap cannot be given.
    NoColour,
    /// The opponent's place is not in the list.
    OpponentMissing {
        opponent: usize,
    },
    /// The entry (`entry`, in the file's notation) does not match the opponent's.
    Disagrees {
        entry: String,
        opponent: usize,
    },
    /// `value` holds `found`, which the ASCII file cannot hold.
    NotAscii {
        field: EgfField,
        value: String,
        found: char,
    },
    /// Not a two-letter country code.
    Country {
        value: String,
    },
    NoSurname,
    EndsBeforeStart,
}

impl Lang {
    /// What in the tournament's data keeps a document from being made.
    pub fn data_problem(self, p: &DataProblem) -> String {
        match p {
            DataProblem::Egf(e) => self.egf_error(e),
            DataProblem::EgfRefused(e) => self.egf_refusal(e),
            DataProblem::TiebreakColumns { place } => tr!(self, "print.err_tiebreak_columns", place),
            DataProblem::WrongData => self.t("print.err_wrong_data").to_string(),
        }
    }

    /// Where and why the EGF results file cannot be written: "place 2, round 1: no result".
    pub fn egf_error(self, e: &EgfError) -> String {
        let field = |f: EgfField| {
            self.t(match f {
                EgfField::Surname => "egf.field_surname",
                EgfField::FirstName => "egf.field_first_name",
                EgfField::Club => "egf.field_club",
                EgfField::EventName => "egf.field_event_name",
                EgfField::City => "egf.field_city",
                EgfField::Comment => "egf.field_comment",
            })
        };
        let what = match &e.problem {
            EgfProblem::RoundCount { have, first } => tr!(self, "egf.err_round_count", rounds = have, first),
            EgfProblem::InvalidRank => self.t("egf.err_invalid_rank").to_string(),
            EgfProblem::NoResult => self.t("egf.err_no_result").to_string(),
            EgfProblem::NoColour => self.t("egf.err_no_colour").to_string(),
            EgfProblem::OpponentMissing { opponent } => tr!(self, "egf.err_opponent_missing", opponent),
            EgfProblem::Disagrees { entry, opponent } => tr!(self, "egf.err_disagrees", entry, opponent),
            EgfProblem::NotAscii { field: f, value, found } => {
                let key = match f {
                    EgfField::Surname | EgfField::FirstName | EgfField::Club => "egf.err_not_ascii_name",
                    EgfField::EventName | EgfField::City | EgfField::Comment => "egf.err_not_ascii",
                };
                tr!(self, key, field = field(*f), value, found)
            }
            EgfProblem::Country { value } => tr!(self, "egf.err_country", value),
            EgfProblem::NoSurname => self.t("egf.err_no_surname").to_string(),
            EgfProblem::EndsBeforeStart => self.t("egf.err_ends_before_start").to_string(),
        };
        match (e.place, e.round) {
            (Some(p), Some(r)) => tr!(self, "egf.at_game", place = p, round = r, what),
            (Some(p), None) => tr!(self, "egf.at_place", place = p, what),
            (None, _) => what,
        }
    }

    /// Why the tournament makes no EGF rating file.
    pub fn egf_refusal(self, e: &EgfRefusal) -> String {
        match e {
            EgfRefusal::Rank { entrant, rank } => tr!(self, "egf.err_rank", entrant, rank),
            EgfRefusal::BelowClassC { basic_minutes, adjusted_minutes } => {
                tr!(self, "egf.err_below_class_c", basic_minutes, adjusted_minutes)
            }
        }
    }
}
