//! The results table in the EGF rating format (`.h9`), for the European Go Federation's rating
//! list.
//!
//! # The EGF `.h9` format
//! The European Go Federation's rating list reads a plain ASCII table: header lines starting with
//! `;` (`; CL[A]` class, `; EV[...]` event, `; PC[CN, Beijing]` country and place,
//! `; DT[2026-12-05,2026-12-07]` dates, `; HA[h9]` handicap rule, `; KM[7.5]` komi in points,
//! `; TM[75]` adjusted time in minutes, `; CM[...]` comment), then one line per player in final
//! order: place, "Surname Firstname", rank (`5k`, `2d`, `1p`), country code, club, optional score
//! columns, then one entry per round: `<opponent's place><+|-|=>/<b|w><handicap>`, or `0+` (bye
//! with a point), `0-` (absent), `0=` (bye with half a point); optionally `|EGD-PIN` at the end.
//! Everything after a `;` is a comment, so names and clubs never contain one.
//!
//! The format's description (A. Cieply, EGF ratings, "Comments on submitting tournament
//! results", gemma.ujf.cas.cz/~cieply/GO/format.html) says of the handicap:
//!
//! > `<opponent's place><symbol>[/<colour>[<h>]]` … `<h>` specifies the number of given
//! > handicaps. Examples: 35=, 23+/w (equivalent to 23+/w0), 11-/b5. The handicap specification
//! > can be omitted if the handicaps are computed from the difference of opponents' grades
//! > (minus a given reduction).
//!
//! The "given reduction" is the header's `HA[hN]`: handicap = grade difference − N, so `h9` is
//! what even events write (no pair of amateurs is more than 9 grades apart that matters), an
//! event giving "rank difference − 1" writes `h1` ([`EgfHandicap`]). Handicaps by McMahon-score
//! difference are not computed from grades at all: such a file states no `HA` reduction (it
//! would be false), says the rule in `CM[...]`, and gives every game's handicap explicitly —
//! which this writer does in every file anyway (a game's entry always names its colour, and
//! `/w` is `/w0`).

use crate::domain::entrant::Rank;
use crate::sheets::{Colour, DataProblem, Outcome, PrintError, RoundResult};
pub use crate::sheets::{EgfError, EgfField, EgfProblem, EgfRefusal};
use chrono::NaiveDate;

/// EGF tournament class (A, B, C: over the board by time limits; D: internet).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum EgfClass {
    #[default]
    A,
    B,
    C,
    D,
}

/// The tournament header of an EGF results file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EgfTournament {
    pub class: EgfClass,
    /// Event name (ASCII; accents are folded, other characters refused).
    pub name: String,
    /// ISO 3166 two-letter country code, e.g. "CN".
    pub country: String,
    pub city: String,
    pub start: NaiveDate,
    pub end: NaiveDate,
    /// The event's handicap rule (the `HA` line, and the comment for a rule `HA` cannot state).
    pub handicap: EgfHandicap,
    /// Komi in quarter stones (Chinese rules: 3¾ stones = 15 = 7.5 points).
    pub komi_q: i32,
    /// Adjusted time in minutes: basic time + the time for 45 moves of byo-yomi (60 Canadian).
    pub adjusted_time_min: u32,
    /// Free comment (e.g. the time system), may be empty.
    pub comment: String,
}

/// An event's handicap rule as an EGF results file states it (see the module's quotation of
/// the format).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum EgfHandicap {
    /// Even games: `HA[h9]`.
    #[default]
    Even,
    /// Stones = rank difference − `reduction`, at most `max`: `HA[h<reduction>]`.
    RankDifference { reduction: u8, max: u8 },
    /// Stones = McMahon-score difference − `reduction`, at most `max`: no grade rule, so no
    /// `HA` line; the rule is said in the comment and each game carries its handicap.
    McMahonScore { reduction: u8, max: u8 },
}

impl EgfHandicap {
    /// The `HA[...]` value, if the rule is one the format's `hN` states.
    fn ha(self) -> Option<String> {
        match self {
            EgfHandicap::Even => Some("h9".into()),
            EgfHandicap::RankDifference { reduction, .. } => Some(format!("h{reduction}")),
            EgfHandicap::McMahonScore { .. } => None,
        }
    }

    /// The rule in words for the comment (none for even games).
    fn words(self) -> Option<String> {
        match self {
            EgfHandicap::Even => None,
            EgfHandicap::RankDifference { reduction, max } => {
                Some(format!("handicap: rank difference - {reduction}, at most {max}"))
            }
            EgfHandicap::McMahonScore { reduction, max } => Some(format!(
                "handicap: McMahon score difference - {reduction}, at most {max}, given for every game"
            )),
        }
    }
}

impl EgfError {
    fn at(place: usize, problem: EgfProblem) -> PrintError {
        DataProblem::Egf(EgfError { place: (place > 0).then_some(place), round: None, problem }).into()
    }
    fn game(place: usize, round: usize, problem: EgfProblem) -> PrintError {
        DataProblem::Egf(EgfError { place: Some(place), round: Some(round), problem }).into()
    }
}

/// A player of an EGF results file, given in final order (the first is place 1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EgfPlayer {
    pub surname: String,
    pub first_name: String,
    pub rank: Rank,
    /// ISO 3166 two-letter country code.
    pub country: String,
    /// Club abbreviation (EGD style, up to 4 characters; "-" when empty).
    pub club: String,
    /// One per round; `opponent` is the opponent's place in this list.
    pub results: Vec<RoundResult>,
    /// Extra score columns printed before the results, e.g. [("MMS", "36"), ("SOS", "206")].
    pub scores: Vec<(String, String)>,
    /// EGD PIN, if known.
    pub egd_pin: Option<String>,
}

/// Folds accents to ASCII ("Müller" → "Muller", "Lǚ" → "Lu"); `Err(c)` on the first
/// character that has no ASCII form (a Chinese name must be given in pinyin).
pub fn ascii_fold(s: &str) -> Result<String, char> {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c.is_ascii() {
            out.push(c);
            continue;
        }
        let f = match c {
            'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' | 'ā' | 'ă' | 'ą' | 'ǎ' => "a",
            'À' | 'Á' | 'Â' | 'Ã' | 'Ä' | 'Å' | 'Ā' | 'Ă' | 'Ą' | 'Ǎ' => "A",
            'æ' => "ae",
            'Æ' => "AE",
            'ç' | 'ć' | 'č' | 'ĉ' | 'ċ' => "c",
            'Ç' | 'Ć' | 'Č' | 'Ĉ' | 'Ċ' => "C",
            'ď' | 'đ' | 'ð' => "d",
            'Ď' | 'Đ' | 'Ð' => "D",
            'è' | 'é' | 'ê' | 'ë' | 'ē' | 'ĕ' | 'ė' | 'ę' | 'ě' => "e",
            'È' | 'É' | 'Ê' | 'Ë' | 'Ē' | 'Ĕ' | 'Ė' | 'Ę' | 'Ě' => "E",
            'ğ' | 'ĝ' | 'ġ' | 'ģ' => "g",
            'Ğ' | 'Ĝ' | 'Ġ' | 'Ģ' => "G",
            'ì' | 'í' | 'î' | 'ï' | 'ī' | 'ĭ' | 'į' | 'ı' | 'ǐ' => "i",
            'Ì' | 'Í' | 'Î' | 'Ï' | 'Ī' | 'Ĭ' | 'Į' | 'İ' | 'Ǐ' => "I",
            'ł' | 'ĺ' | 'ľ' | 'ļ' => "l",
            'Ł' | 'Ĺ' | 'Ľ' | 'Ļ' => "L",
            'ñ' | 'ń' | 'ň' | 'ņ' => "n",
            'Ñ' | 'Ń' | 'Ň' | 'Ņ' => "N",
            'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ø' | 'ō' | 'ő' | 'ǒ' => "o",
            'Ò' | 'Ó' | 'Ô' | 'Õ' | 'Ö' | 'Ø' | 'Ō' | 'Ő' | 'Ǒ' => "O",
            'œ' => "oe",
            'Œ' => "OE",
            'ř' | 'ŕ' => "r",
            'Ř' | 'Ŕ' => "R",
            'ś' | 'š' | 'ş' | 'ș' | 'ŝ' => "s",
            'Ś' | 'Š' | 'Ş' | 'Ș' | 'Ŝ' => "S",
            'ß' => "ss",
            'ť' | 'ţ' | 'ț' => "t",
            'Ť' | 'Ţ' | 'Ț' => "T",
            'ù' | 'ú' | 'û' | 'ü' | 'ū' | 'ů' | 'ű' | 'ų' | 'ǔ' | 'ǖ' | 'ǘ' | 'ǚ' | 'ǜ' => "u",
            'Ù' | 'Ú' | 'Û' | 'Ü' | 'Ū' | 'Ů' | 'Ű' | 'Ų' | 'Ǔ' | 'Ǖ' | 'Ǘ' | 'Ǚ' | 'Ǜ' => "U",
            'ý' | 'ÿ' => "y",
            'Ý' | 'Ÿ' => "Y",
            'ź' | 'ž' | 'ż' => "z",
            'Ź' | 'Ž' | 'Ż' => "Z",
            '’' | '‘' => "'",
            '\u{a0}' | '\u{3000}' => " ",
            _ => return Err(c),
        };
        out.push_str(f);
    }
    Ok(out)
}

/// A name part as one h9 token: ASCII, inner spaces as `_`, no `;` or `|`.
fn name_token(s: &str, field: EgfField, place: usize) -> Result<String, PrintError> {
    let folded = ascii_fold(s.trim())
        .map_err(|found| EgfError::at(place, EgfProblem::NotAscii { field, value: s.to_string(), found }))?;
    let token: String = folded
        .split_whitespace()
        .collect::<Vec<_>>()
        .join("_")
        .chars()
        .filter(|c| !matches!(c, ';' | '|' | '[' | ']'))
        .collect();
    Ok(token)
}

fn country_code(s: &str, place: usize) -> Result<String, PrintError> {
    let c = s.trim().to_ascii_uppercase();
    if c.len() == 2 && c.chars().all(|c| c.is_ascii_uppercase()) {
        Ok(c)
    } else {
        Err(EgfError::at(place, EgfProblem::Country { value: s.to_string() }))
    }
}

fn header_text(s: &str, field: EgfField) -> Result<String, PrintError> {
    let folded = ascii_fold(s.trim())
        .map_err(|found| EgfError::at(0, EgfProblem::NotAscii { field, value: s.to_string(), found }))?;
    Ok(folded.chars().filter(|c| !matches!(c, '[' | ']' | '\r' | '\n')).collect())
}

/// Komi in points from quarter stones: 15 → "7.5", 26 → "13", -3 → "-1.5".
fn komi_points(q: i32) -> String {
    let halves = q; // one quarter stone = half a point
    let whole = halves / 2;
    if halves % 2 == 0 {
        whole.to_string()
    } else if halves < 0 && whole == 0 {
        "-0.5".to_string()
    } else {
        format!("{whole}.5")
    }
}

/// The results as an EGF `.h9` table (ASCII, CRLF). Games not played on the board (forfeits)
/// and double losses are written as free rounds (`0+` for a forfeit's winner, else `0-`): the
/// format has no sign for them and the rating list must not rate them. Checks that every player has the same number
/// of rounds, that opponents are within the list and agree (A met B in round r ⇔ B met A, with
/// opposite outcomes and colours), and that every game has a result.
pub fn egf_h9(t: &EgfTournament, players: &[EgfPlayer]) -> Result<String, PrintError> {
    // The rating list rates games played on the board (`RoundResult::as_rated`).
    let normalised: Vec<EgfPlayer> = players
        .iter()
        .map(|p| EgfPlayer { results: p.results.iter().map(RoundResult::as_rated).collect(), ..p.clone() })
        .collect();
    let players = &normalised[..];
    let n = players.len();
    let rounds = players.first().map_or(0, |p| p.results.len());
    for (i, p) in players.iter().enumerate() {
        let place = i + 1;
        if p.results.len() != rounds {
            return Err(EgfError::at(place, EgfProblem::RoundCount { have: p.results.len(), first: rounds }));
        }
        if !p.rank.is_valid() {
            return Err(EgfError::at(place, EgfProblem::InvalidRank));
        }
        for (r, res) in p.results.iter().enumerate() {
            let round = r + 1;
            if res.outcome == Outcome::Unknown {
                return Err(EgfError::game(place, round, EgfProblem::NoResult));
            }
            let Some(o) = res.opponent else { continue };
            if res.colour.is_none() && t.handicap != EgfHandicap::Even {
                // Without its colour a game's handicap would be read from the grades.
                return Err(EgfError::game(place, round, EgfProblem::NoColour));
            }
            let o = o as usize;
            if o == 0 || o > n || o == place {
                return Err(EgfError::game(place, round, EgfProblem::OpponentMissing { opponent: o }));
            }
            let back = &players[o - 1].results.get(r);
            let expected_outcome = match res.outcome {
                Outcome::Win => Outcome::Loss,
                Outcome::Loss => Outcome::Win,
                other => other,
            };
            let expected_colour = res.colour.map(|c| match c {
                Colour::Black => Colour::White,
                Colour::White => Colour::Black,
            });
            let agrees = back.is_some_and(|b| {
                b.opponent == Some(place as u32)
                    && b.outcome == expected_outcome
                    && b.colour == expected_colour
                    && b.handicap == res.handicap
            });
            if !agrees {
                let problem = EgfProblem::Disagrees { entry: res.notation(), opponent: o };
                return Err(EgfError::game(place, round, problem));
            }
        }
    }
    if t.end < t.start {
        return Err(EgfError::at(0, EgfProblem::EndsBeforeStart));
    }
    let class = match t.class {
        EgfClass::A => 'A',
        EgfClass::B => 'B',
        EgfClass::C => 'C',
        EgfClass::D => 'D',
    };
    let mut out = String::new();
    let mut line = |s: &str| {
        out.push_str(s);
        out.push_str("\r\n");
    };
    line(&format!("; CL[{class}]"));
    line(&format!("; EV[{}]", header_text(&t.name, EgfField::EventName)?));
    let city = header_text(&t.city, EgfField::City)?;
    if city.trim().is_empty() {
        line(&format!("; PC[{}]", country_code(&t.country, 0)?));
    } else {
        line(&format!("; PC[{}, {city}]", country_code(&t.country, 0)?));
    }
    line(&format!("; DT[{},{}]", t.start.format("%Y-%m-%d"), t.end.format("%Y-%m-%d")));
    if let Some(ha) = t.handicap.ha() {
        line(&format!("; HA[{ha}]"));
    }
    line(&format!("; KM[{}]", komi_points(t.komi_q)));
    line(&format!("; TM[{}]", t.adjusted_time_min));
    let comment: Vec<String> =
        [Some(t.comment.trim().to_string()).filter(|c| !c.is_empty()), t.handicap.words()]
            .into_iter()
            .flatten()
            .collect();
    if !comment.is_empty() {
        line(&format!("; CM[{}]", header_text(&comment.join(", "), EgfField::Comment)?));
    }
    line("; Generated by Tengen");
    line(";");

    // Columns: place, name, rank, country, club, scores, results, pin.
    struct Row {
        name: String,
        rank: String,
        country: String,
        club: String,
        scores: Vec<String>,
        results: Vec<String>,
        pin: String,
    }
    let mut table = Vec::with_capacity(n);
    for (i, p) in players.iter().enumerate() {
        let place = i + 1;
        let surname = name_token(&p.surname, EgfField::Surname, place)?;
        let first = name_token(&p.first_name, EgfField::FirstName, place)?;
        if surname.is_empty() {
            return Err(EgfError::at(place, EgfProblem::NoSurname));
        }
        let name = if first.is_empty() { surname } else { format!("{surname} {first}") };
        let club = name_token(&p.club, EgfField::Club, place)?;
        let club = if club.is_empty() { "-".to_string() } else { club.chars().take(4).collect() };
        let pin: String = p.egd_pin.as_deref().unwrap_or("").chars().filter(|c| c.is_ascii_digit()).collect();
        table.push(Row {
            name,
            rank: p.rank.notation(),
            country: country_code(&p.country, place)?,
            club,
            scores: p.scores.iter().map(|(_, v)| v.trim().to_string()).collect(),
            results: p.results.iter().map(|r| r.notation()).collect(),
            pin,
        });
    }
    let score_labels: Vec<String> =
        players.first().map(|p| p.scores.iter().map(|(l, _)| l.clone()).collect()).unwrap_or_default();
    let wp = n.to_string().len().max(2);
    let wn = table.iter().map(|r| r.name.len()).max().unwrap_or(4).max(4);
    let ws: Vec<usize> = (0..score_labels.len())
        .map(|k| {
            table
                .iter()
                .map(|r| r.scores.get(k).map_or(0, |s| s.len()))
                .max()
                .unwrap_or(0)
                .max(score_labels[k].len())
        })
        .collect();
    let wr = table.iter().flat_map(|r| r.results.iter().map(|s| s.len())).max().unwrap_or(2);
    let mut head = format!("; {:>wp$} {:<wn$} {:>3} Co Club", "Pl", "Name", "Rk");
    for (l, w) in score_labels.iter().zip(&ws) {
        head.push_str(&format!(" {l:>w$}"));
    }
    line(&head);
    for (i, r) in table.iter().enumerate() {
        let mut s = format!("  {:>wp$} {:<wn$} {:>3} {} {:<4}", i + 1, r.name, r.rank, r.country, r.club);
        for (k, w) in ws.iter().enumerate() {
            s.push_str(&format!(" {:>w$}", r.scores.get(k).map_or("", |x| x.as_str())));
        }
        s.push(' ');
        for res in &r.results {
            s.push_str(&format!(" {res:<wr$}"));
        }
        if !r.pin.is_empty() {
            s.push_str(&format!(" |{}", r.pin));
        }
        line(s.trim_end());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(o: u32, outcome: Outcome, c: Colour, h: u8) -> RoundResult {
        RoundResult::game(o, outcome, Some(c), h)
    }

    fn egf_players() -> Vec<EgfPlayer> {
        use Colour::{Black as B, White as W};
        use Outcome::{Loss as L, Win as Wn};
        let p = |surname: &str, first: &str, rank, country: &str, club: &str, results| EgfPlayer {
            surname: surname.into(),
            first_name: first.into(),
            rank,
            country: country.into(),
            club: club.into(),
            results,
            scores: vec![],
            egd_pin: None,
        };
        vec![
            p(
                "Wang",
                "Wei",
                Rank::Dan(6),
                "CN",
                "BJWQ",
                vec![game(3, Wn, B, 0), game(2, Wn, W, 0), game(4, Wn, B, 0)],
            ),
            p(
                "Müller",
                "Anna Maria",
                Rank::Dan(2),
                "de",
                "Berl",
                vec![game(4, Wn, W, 0), game(1, L, B, 0), game(3, Wn, W, 2)],
            ),
            p(
                "Lǚ",
                "Zixuan",
                Rank::Kyu(3),
                "CN",
                "",
                vec![game(1, L, W, 0), RoundResult::no_game(Outcome::Win), game(2, L, B, 2)],
            ),
            p(
                "Kim",
                "Min-jun",
                Rank::Kyu(12),
                "KR",
                "Seoul Club",
                vec![game(2, L, B, 0), RoundResult::no_game(Outcome::Loss), game(1, L, W, 0)],
            ),
        ]
    }

    fn egf_tournament() -> EgfTournament {
        EgfTournament {
            class: EgfClass::A,
            name: "1st Tengen Cup".into(),
            country: "cn".into(),
            city: "Beijing".into(),
            start: NaiveDate::from_ymd_opt(2026, 12, 5).unwrap(),
            end: NaiveDate::from_ymd_opt(2026, 12, 6).unwrap(),
            handicap: EgfHandicap::Even,
            komi_q: 15,
            adjusted_time_min: 82,
            comment: "60 min + 3x30 s byo-yomi".into(),
        }
    }

    #[test]
    fn egf_h9_file_is_exactly_as_expected() {
        let mut players = egf_players();
        players[0].egd_pin = Some("12345678".into());
        let out = egf_h9(&egf_tournament(), &players).unwrap();
        let expected = [
            "; CL[A]",
            "; EV[1st Tengen Cup]",
            "; PC[CN, Beijing]",
            "; DT[2026-12-05,2026-12-06]",
            "; HA[h9]",
            "; KM[7.5]",
            "; TM[82]",
            "; CM[60 min + 3x30 s byo-yomi]",
            "; Generated by Tengen",
            ";",
            "; Pl Name               Rk Co Club",
            "   1 Wang Wei           6d CN BJWQ  3+/b  2+/w  4+/b  |12345678",
            "   2 Muller Anna_Maria  2d DE Berl  4+/w  1-/b  3+/w2",
            "   3 Lu Zixuan          3k CN -     1-/w  0+    2-/b2",
            "   4 Kim Min-jun       12k KR Seou  2-/b  0-    1-/w",
            "",
        ]
        .join("\r\n");
        assert_eq!(out, expected, "\n{out}");
        assert!(out.is_ascii());
    }

    #[test]
    fn egf_h9_refuses_what_the_rating_list_cannot_read() {
        let t = egf_tournament();
        // Inconsistent opponents.
        let mut ps = egf_players();
        ps[1].results[0] = game(4, Outcome::Loss, Colour::White, 0);
        assert!(egf_h9(&t, &ps).unwrap_err().to_string().contains("place 2, round 1"));
        // A Chinese name without pinyin.
        let mut ps = egf_players();
        ps[0].surname = "王".into();
        assert!(egf_h9(&t, &ps).unwrap_err().to_string().contains("pinyin"));
        // A missing round and an unknown result.
        let mut ps = egf_players();
        ps[3].results.pop();
        assert!(egf_h9(&t, &ps).is_err());
        let mut ps = egf_players();
        ps[2].results[1] = RoundResult::no_game(Outcome::Unknown);
        assert!(egf_h9(&t, &ps).unwrap_err().to_string().contains("no result"));
        // Bad country code.
        let mut ps = egf_players();
        ps[0].country = "China".into();
        assert!(egf_h9(&t, &ps).is_err());
    }

    #[test]
    fn egf_h9_writes_forfeits_and_double_losses_as_free_rounds() {
        let mut ps = egf_players();
        // Round 3: 1 beat 4 by forfeit; 2 and 3 both lost.
        ps[0].results[2].forfeit = true;
        ps[3].results[2].forfeit = true;
        ps[1].results[2] = RoundResult { double_loss: true, ..game(3, Outcome::Loss, Colour::White, 2) };
        ps[2].results[2] = RoundResult { double_loss: true, ..game(2, Outcome::Loss, Colour::Black, 2) };
        let t = EgfTournament { city: String::new(), ..egf_tournament() };
        let out = egf_h9(&t, &ps).unwrap();
        assert!(out.contains("; PC[CN]\r\n"), "no city: the country alone");
        assert!(out.contains("   1 Wang Wei           6d CN BJWQ  3+/b 2+/w 0+\r\n"), "{out}");
        assert!(out.contains("   2 Muller Anna_Maria  2d DE Berl  4+/w 1-/b 0-\r\n"), "{out}");
        assert!(out.contains("   3 Lu Zixuan          3k CN -     1-/w 0+   0-\r\n"), "{out}");
        assert!(out.contains("   4 Kim Min-jun       12k KR Seou  2-/b 0-   0-\r\n"), "{out}");
    }

    /// Three players 5d, 3d, 1k who meet each other over three rounds (one has a bye each
    /// round), every handicap = grade difference − 1 (5d–3d: 1, 5d–1k: 4, 3d–1k: 2), the
    /// weaker with Black.
    fn handicap_players() -> Vec<EgfPlayer> {
        use Colour::{Black as B, White as W};
        use Outcome::{Loss as L, Win as Wn};
        let p = |surname: &str, rank, results| EgfPlayer {
            surname: surname.into(),
            first_name: "Test".into(),
            rank,
            country: "CN".into(),
            club: String::new(),
            results,
            scores: vec![],
            egd_pin: None,
        };
        vec![
            p("Wu", Rank::Dan(5), vec![game(2, Wn, W, 1), game(3, Wn, W, 4), RoundResult::no_game(Wn)]),
            p("Xu", Rank::Dan(3), vec![game(1, L, B, 1), RoundResult::no_game(Wn), game(3, Wn, W, 2)]),
            p("Yu", Rank::Kyu(1), vec![RoundResult::no_game(Wn), game(1, L, B, 4), game(2, L, B, 2)]),
        ]
    }

    /// Header tags as (tag, value); players as (rank, round entries).
    type H9 = (Vec<(String, String)>, Vec<(Rank, Vec<String>)>);

    /// The header tags of an h9 file, and each player's (rank, entries).
    fn read_h9(out: &str) -> H9 {
        let tags = out
            .lines()
            .filter_map(|l| l.strip_prefix("; "))
            .filter_map(|l| Some((l.get(..2)?.to_string(), l.get(3..)?.strip_suffix(']')?.to_string())))
            .filter(|(k, _)| k.chars().all(|c| c.is_ascii_uppercase()))
            .collect();
        let players = out
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with(';'))
            .map(|l| {
                let w: Vec<&str> = l.split_whitespace().collect();
                let rank = match w[3].split_at(w[3].len() - 1) {
                    (n, "d") => Rank::Dan(n.parse().unwrap()),
                    (n, "k") => Rank::Kyu(n.parse().unwrap()),
                    other => panic!("rank {other:?}"),
                };
                (rank, w[6..].iter().map(|x| x.to_string()).collect())
            })
            .collect();
        (tags, players)
    }

    /// A grade as a number, one a grade (1k = 0, 1d = 1: "1d − 1k = 1").
    fn grade(r: Rank) -> i32 {
        match r {
            Rank::Dan(d) => i32::from(d),
            Rank::Kyu(k) => 1 - i32::from(k),
            _ => unreachable!(),
        }
    }

    /// The format: "The handicap specification can be omitted if the handicaps are computed
    /// from the difference of opponents' grades (minus a given reduction)" — the reduction is
    /// `HA[hN]`. An event giving "rank difference − 1" writes `HA[h1]`, and every written
    /// handicap agrees with that reading; `h9` is even games; a McMahon-score rule states no
    /// grade reduction, says its rule in `CM`, and every game names its colour (so its
    /// handicap, `/w` being `/w0`).
    #[test]
    fn egf_h9_states_the_handicap_rule_as_the_format_describes() {
        let rank_rule = EgfTournament {
            handicap: EgfHandicap::RankDifference { reduction: 1, max: 9 },
            ..egf_tournament()
        };
        let out = egf_h9(&rank_rule, &handicap_players()).unwrap();
        let (tags, players) = read_h9(&out);
        let ha: Vec<&str> = tags.iter().filter(|(k, _)| k == "HA").map(|(_, v)| v.as_str()).collect();
        assert_eq!(ha, ["h1"], "{out}");
        let n: i32 = ha[0][1..].parse().unwrap();
        assert!(
            out.contains("; CM[60 min + 3x30 s byo-yomi, handicap: rank difference - 1, at most 9]\r\n"),
            "{out}"
        );
        let mut games = 0;
        for (rank, entries) in &players {
            for e in entries.iter().filter(|e| !e.starts_with('0')) {
                // <opponent's place><symbol>[/<colour>[<h>]]
                let (opp, rest) = e.split_at(e.find(['+', '-', '=']).unwrap());
                let (colour, h) = rest[1..].strip_prefix('/').map(|c| c.split_at(1)).unwrap();
                let h: i32 = if h.is_empty() { 0 } else { h.parse().unwrap() };
                let opp_rank = players[opp.parse::<usize>().unwrap() - 1].0;
                let diff = (grade(*rank) - grade(opp_rank)).abs();
                assert_eq!(h, (diff - n).max(0), "{e}: grade difference {diff} minus {n}");
                if h > 0 {
                    assert_eq!(colour == "b", grade(*rank) < grade(opp_rank), "{e}: the weaker has Black");
                }
                games += 1;
            }
        }
        assert_eq!(games, 6);
        // Even games: h9, and no handicap words.
        let even = egf_h9(&egf_tournament(), &egf_players()).unwrap();
        assert!(even.contains("; HA[h9]\r\n") && !even.contains("handicap:"), "{even}");
        // By McMahon score: no grade reduction claimed; the rule said; every game coloured.
        let mms = EgfTournament {
            handicap: EgfHandicap::McMahonScore { reduction: 1, max: 9 },
            ..egf_tournament()
        };
        let out = egf_h9(&mms, &handicap_players()).unwrap();
        assert!(!out.contains("HA["), "{out}");
        assert!(
            out.contains("; CM[60 min + 3x30 s byo-yomi, handicap: McMahon score difference - 1, at most 9, given for every game]\r\n"),
            "{out}"
        );
        let (_, players) = read_h9(&out);
        let games = players.iter().flat_map(|(_, es)| es).filter(|e| !e.starts_with('0'));
        assert!(games.clone().count() == 6 && games.clone().all(|e| e.contains("/b") || e.contains("/w")));
        // A game without its colour could not carry its handicap: refused.
        let mut ps = handicap_players();
        ps[0].results[0].colour = None;
        ps[1].results[0].colour = None;
        assert!(egf_h9(&mms, &ps).unwrap_err().to_string().contains("no colour"));
        assert!(
            egf_h9(&egf_tournament(), &{
                let mut ps = handicap_players();
                for p in &mut ps {
                    for r in &mut p.results {
                        r.colour = None;
                        r.handicap = 0;
                    }
                }
                ps
            })
            .is_ok(),
            "an even file may leave colours out"
        );
    }

    #[test]
    fn egf_h9_score_columns_and_komi() {
        let mut ps = egf_players();
        for (i, p) in ps.iter_mut().enumerate() {
            p.scores = vec![("MMS".into(), format!("{}", 30 - i)), ("SOS".into(), format!("{}", 90 - i * 7))];
        }
        let out = egf_h9(&egf_tournament(), &ps).unwrap();
        assert!(out.contains("; Pl Name               Rk Co Club MMS SOS\r\n"), "{out}");
        assert!(out.contains("   1 Wang Wei           6d CN BJWQ  30  90  3+/b  2+/w  4+/b\r\n"), "{out}");
        assert_eq!(komi_points(15), "7.5");
        assert_eq!(komi_points(26), "13");
        assert_eq!(komi_points(0), "0");
        assert_eq!(komi_points(-1), "-0.5");
        assert_eq!(komi_points(-3), "-1.5");
    }
}
