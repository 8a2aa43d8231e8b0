//! Rating lists (等级分名单) of the federations and associations: which list row is which
//! entrant, what the row would change, and how a list's grade or rating becomes Tengen's rank.
//!
//! The lists are the EGF's (the European Go Database's "allworld" list: EGD PIN, grade, GoR),
//! the FFG's échelle (licence, FFG rating), the AGA's TDList (member number, AGA rating) and any
//! association's list as CSV (id, name, rank or rating). `formats::rating_lists` reads their
//! bytes into [`ListRow`]s; this module decides, and words nothing.
//!
//! **Matching** ([`match_entrants`]), as OpenGotha's and pairgoth's rating-list lookups do:
//! first by the list's own id (the entrant's EGD PIN for the EGF list, their federation id for
//! the others), then by name — the Latin family and given names compared without case, spaces
//! or accents ("Müller" = "MULLER"), or, for a row written in Chinese characters, the Chinese
//! name. A name two rows share matches neither (the organizer decides by id), and a row is
//! given to one entrant only.
//!
//! **Ranks from ratings.** The EGF's grade ("3d", "15k", "2p") is the rank as written. A
//! rating without a grade becomes a rank on the EGF's GoR scale, where 1d is centred on 2100
//! and each grade is 100 points (1d: 2050–2149, 1k: 1950–2049). The FFG's échelle is that scale
//! shifted by 2050 (FFG 0–99 is 1d, −100…−1 is 1k), as OpenGotha converts it. An AGA rating is
//! a decimal grade (3.5 is a middling 3d, −12.3 a 12k; nothing between −1 and 1): its whole
//! part is the grade, its fraction placed in the grade's GoR band.

use crate::entrant::{is_cjk, Rank};
use crate::names::fold_letter;

/// Where a list comes from: how its ids, grades and ratings are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Source {
    /// The European Go Database's list: EGD PIN, grade, GoR.
    Egf,
    /// The French federation's échelle: licence, FFG rating.
    Ffg,
    /// The American Go Association's TDList: member number, AGA rating in hundredths.
    Aga,
    /// Any association's list with a header row: id, name, rank or rating (as Tengen's).
    Csv,
}

impl Source {
    pub const ALL: [Source; 4] = [Source::Egf, Source::Ffg, Source::Aga, Source::Csv];

    /// The stored code.
    pub fn code(self) -> &'static str {
        match self {
            Source::Egf => "egf",
            Source::Ffg => "ffg",
            Source::Aga => "aga",
            Source::Csv => "csv",
        }
    }

    pub fn from_code(s: &str) -> Option<Source> {
        Source::ALL.into_iter().find(|x| x.code() == s)
    }

    /// Whether the list's id is an EGD PIN (compared with the entrant's `egd_pin`); the other
    /// lists' ids are the entrant's `federation_id`.
    pub fn id_is_egd_pin(self) -> bool {
        self == Source::Egf
    }

    /// A row's rating on Tengen's rating scale (the EGF's GoR, as OpenGotha keeps ratings).
    pub fn rating_as_gor(self, rating: i32) -> i32 {
        match self {
            Source::Egf | Source::Csv => rating,
            Source::Ffg => ffg_to_gor(rating),
            Source::Aga => aga_to_gor(rating),
        }
    }
}

/// One player of a list, as the list says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListRow {
    /// The file's line (1-based).
    pub line: usize,
    /// The id in the list: EGD PIN, licence, member number; may be empty in a CSV list.
    pub key: String,
    pub family: String,
    pub given: String,
    /// The grade as written ("3d", "15k"); empty when the list gives only a rating.
    pub rank: String,
    /// The rating in the list's own scale (GoR, FFG points, AGA hundredths, the CSV's number).
    pub rating: Option<i32>,
    pub club: String,
    pub country: String,
}

/// The GoR of an FFG échelle rating: the échelle is the GoR scale shifted by 2050 (FFG 0 is
/// the bottom of 1d, GoR 2050).
pub fn ffg_to_gor(ffg: i32) -> i32 {
    ffg.saturating_add(2050)
}

/// The GoR of an AGA rating given in hundredths (350 is 3.50, −1230 is −12.30): a dan rating
/// *d.f* is GoR 1950 + 100·*d.f* (1.00 → 2050, the bottom of 1d; 3.50 → 2300, the middle of
/// 3d); a kyu rating −*k.f* is GoR 2149 − 100·*k.f* (−1.00 → 2049, the top of 1k; −12.30 →
/// 919, within 12k). The gap between −1 and 1 the AGA scale does not use reads as its edge.
pub fn aga_to_gor(hundredths: i32) -> i32 {
    if hundredths >= 0 {
        1950 + hundredths.max(100)
    } else {
        2149 + hundredths.min(-100)
    }
}

/// The rank of a GoR: 1d is 2050–2149, each grade 100 points, amateur grades only (30k at
/// most below, 9d at most above: a GoR names no professional grade).
pub fn rank_from_gor(gor: i32) -> Rank {
    let value = (gor - 2050).div_euclid(100).clamp(Rank::LOWEST.value(), Rank::Dan(9).value());
    Rank::from_value(value).unwrap_or(Rank::LOWEST)
}

/// A row's rank: its grade as written when it has one Tengen reads ("3d", "15k", "2p"; the
/// EGF's and a CSV's rank column), else its rating's ([`rank_from_gor`] of
/// [`Source::rating_as_gor`]); `None` when the row has neither.
pub fn row_rank(source: Source, row: &ListRow) -> Option<Rank> {
    Rank::parse(&row.rank).ok().or_else(|| row.rating.map(|r| rank_from_gor(source.rating_as_gor(r))))
}

/// What the matcher reads of an entrant.
#[derive(Debug, Clone, Copy)]
pub struct Entrant<'a> {
    pub egd_pin: &'a str,
    pub federation_id: &'a str,
    pub family_zh: &'a str,
    pub given_zh: &'a str,
    pub family_latin: &'a str,
    pub given_latin: &'a str,
}

/// Which rule matched an entrant to a row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MatchedBy {
    /// The list's id: the EGD PIN, or the federation id.
    Id,
    /// The Latin family and given names (case, spaces and accents aside).
    LatinName,
    /// The Chinese name.
    ChineseName,
}

/// A Latin name folded for comparison: letters and digits only, lower case, accents dropped
/// ("Müller", "MULLER" and "mul ler" fold alike). Empty when the name has none.
pub fn fold_latin(s: &str) -> String {
    s.chars()
        .filter_map(fold_letter)
        .flat_map(|f| f.chars().collect::<Vec<_>>())
        .map(|c| match c {
            'ü' => 'u',
            'ç' => 'c',
            'ñ' => 'n',
            'ø' => 'o',
            'å' => 'a',
            'ý' | 'ÿ' => 'y',
            'š' => 's',
            'ž' => 'z',
            'č' | 'ć' => 'c',
            'ř' => 'r',
            'ł' => 'l',
            'ń' => 'n',
            'ś' => 's',
            'ź' | 'ż' => 'z',
            'ő' => 'o',
            'ű' => 'u',
            c => c,
        })
        .collect()
}

/// A name in Chinese characters without spaces; empty when it has no Chinese character.
fn chinese(family: &str, given: &str) -> String {
    let s: String = family.chars().chain(given.chars()).filter(|c| !c.is_whitespace()).collect();
    if s.chars().any(is_cjk) {
        s
    } else {
        String::new()
    }
}

/// The row each entrant matches (an index into `rows`) and the rule that matched, in the
/// entrants' order; see the module docs. Ids first for every entrant, then names among the
/// rows no id took; a name two rows (or two entrants) share matches none.
pub fn match_entrants(
    source: Source,
    entrants: &[Entrant<'_>],
    rows: &[ListRow],
) -> Vec<Option<(usize, MatchedBy)>> {
    let mut out: Vec<Option<(usize, MatchedBy)>> = vec![None; entrants.len()];
    let mut taken = vec![false; rows.len()];
    for (i, e) in entrants.iter().enumerate() {
        let id = if source.id_is_egd_pin() { e.egd_pin } else { e.federation_id }.trim();
        if id.is_empty() {
            continue;
        }
        let hits: Vec<usize> = (0..rows.len()).filter(|&r| !taken[r] && rows[r].key.trim() == id).collect();
        if let [r] = hits[..] {
            out[i] = Some((r, MatchedBy::Id));
            taken[r] = true;
        }
    }
    let row_latin: Vec<String> =
        rows.iter()
            .map(|r| {
                if chinese(&r.family, &r.given).is_empty() {
                    key(&r.family, &r.given)
                } else {
                    String::new()
                }
            })
            .collect();
    let row_zh: Vec<String> = rows.iter().map(|r| chinese(&r.family, &r.given)).collect();
    let names: Vec<Option<(String, MatchedBy)>> = entrants
        .iter()
        .map(|e| {
            let latin = key(e.family_latin, e.given_latin);
            let zh = chinese(e.family_zh, e.given_zh);
            if !latin.is_empty() && row_latin.contains(&latin) {
                Some((latin, MatchedBy::LatinName))
            } else if !zh.is_empty() && row_zh.contains(&zh) {
                Some((zh, MatchedBy::ChineseName))
            } else {
                None
            }
        })
        .collect();
    for (i, name) in names.iter().enumerate() {
        let Some((name, by)) = name else { continue };
        if out[i].is_some() {
            continue;
        }
        let keys = if *by == MatchedBy::LatinName { &row_latin } else { &row_zh };
        let hits: Vec<usize> = (0..rows.len()).filter(|&r| &keys[r] == name).collect();
        let rivals = names
            .iter()
            .enumerate()
            .filter(|(j, n)| *j != i && out[*j].is_none() && n.as_ref() == Some(&(name.clone(), *by)))
            .count();
        if let [r] = hits[..] {
            if !taken[r] && rivals == 0 {
                out[i] = Some((r, *by));
                taken[r] = true;
            }
        }
    }
    out
}

/// Family + given, folded; empty unless both parts have letters.
fn key(family: &str, given: &str) -> String {
    let (f, g) = (fold_latin(family), fold_latin(given));
    if f.is_empty() || g.is_empty() {
        String::new()
    } else {
        format!("{f}\u{1f}{g}")
    }
}

/// What a matched row would change of an entrant, field by field (`None`: the same, or the
/// list says nothing). Nothing here decides a game until the organizer ticks it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Changes {
    pub rank: Option<Rank>,
    /// The rating on Tengen's scale (GoR).
    pub rating: Option<i32>,
    /// The club as the list writes it (the entrant's unit).
    pub unit: Option<String>,
    /// The list's id, for the entrant's EGD PIN or federation id.
    pub id: Option<String>,
}

impl Changes {
    pub fn is_empty(&self) -> bool {
        *self == Changes::default()
    }
}

/// What the entrant has now, for [`changes`].
#[derive(Debug, Clone, Copy)]
pub struct Current<'a> {
    pub rank: Option<Rank>,
    pub rating: Option<i32>,
    pub unit: &'a str,
    /// The entrant's id of the list's kind (EGD PIN or federation id).
    pub id: &'a str,
}

/// The differences between an entrant and their row: the rank ([`row_rank`]), the rating
/// on the GoR scale, the club (an empty club changes nothing) and the list's id.
pub fn changes(source: Source, now: Current<'_>, row: &ListRow) -> Changes {
    let rank = row_rank(source, row).filter(|r| Some(*r) != now.rank);
    let rating = row.rating.map(|r| source.rating_as_gor(r)).filter(|r| Some(*r) != now.rating);
    let club = row.club.trim();
    let unit = (!club.is_empty() && club != now.unit.trim()).then(|| club.to_string());
    let key = row.key.trim();
    let id = (!key.is_empty() && key != now.id.trim()).then(|| key.to_string());
    Changes { rank, rating, unit, id }
}

/// Why a list's changes may not be applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// Round 1 is published: ranks and ratings seeded it (and decide handicaps and McMahon
    /// scores), so the list no longer changes them; the entrant form still can, audited.
    RoundPublished,
}

/// Whether entrants may take a list's ranks and ratings: only before round 1 is published.
/// Ranks and ratings seed the pairing (and in McMahon the starting scores), and a published
/// pairing is locked, so, as tournament programs update from a list before the first round
/// (OpenGotha's "Update ratings", pairgoth's list lookups at registration), nothing a list says
/// changes a game already set.
pub fn may_update(published_rounds: u32) -> Result<(), Refusal> {
    if published_rounds == 0 {
        Ok(())
    } else {
        Err(Refusal::RoundPublished)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(key: &str, family: &str, given: &str, rank: &str, rating: Option<i32>, club: &str) -> ListRow {
        ListRow {
            line: 1,
            key: key.into(),
            family: family.into(),
            given: given.into(),
            rank: rank.into(),
            rating,
            club: club.into(),
            country: String::new(),
        }
    }

    fn who<'a>(pin: &'a str, fed: &'a str, zh: (&'a str, &'a str), latin: (&'a str, &'a str)) -> Entrant<'a> {
        Entrant {
            egd_pin: pin,
            federation_id: fed,
            family_zh: zh.0,
            given_zh: zh.1,
            family_latin: latin.0,
            given_latin: latin.1,
        }
    }

    /// Practice of tournament programs (OpenGotha's "Update ratings" before the first round): a
    /// list updates ranks only until round 1 is published, when pairings lock.
    #[test]
    fn updates_only_before_round_one() {
        assert_eq!(may_update(0), Ok(()));
        assert_eq!(may_update(1), Err(Refusal::RoundPublished));
    }

    /// EGF rating system (GoR): 1d is centred on 2100, a grade is 100 points; the list's grade
    /// ("3d", "15k", "2p") is read as written.
    #[test]
    fn gor_and_grades_to_ranks() {
        assert_eq!(rank_from_gor(2100), Rank::Dan(1));
        assert_eq!(rank_from_gor(2050), Rank::Dan(1));
        assert_eq!(rank_from_gor(2049), Rank::Kyu(1));
        assert_eq!(rank_from_gor(2349), Rank::Dan(3));
        assert_eq!(rank_from_gor(919), Rank::Kyu(12));
        assert_eq!(rank_from_gor(-900), Rank::Kyu(30));
        assert_eq!(rank_from_gor(-5000), Rank::Kyu(30));
        assert_eq!(rank_from_gor(3100), Rank::Dan(9));
        let egf = |grade: &str| row_rank(Source::Egf, &row("1", "A", "B", grade, Some(2000), ""));
        assert_eq!(egf("3d"), Some(Rank::Dan(3)));
        assert_eq!(egf("15k"), Some(Rank::Kyu(15)));
        assert_eq!(egf("2p"), Some(Rank::Pro(2)));
        // No grade: the GoR's.
        assert_eq!(egf(""), Some(Rank::Kyu(1)));
        assert_eq!(row_rank(Source::Egf, &row("1", "A", "B", "", None, "")), None);
    }

    /// FFG échelle (as OpenGotha converts it): the GoR scale shifted by 2050; AGA ratings are
    /// decimal grades, 3.5 a 3d and −12.3 a 12k, with no grade between −1 and 1.
    #[test]
    fn ffg_and_aga_ratings_to_ranks() {
        assert_eq!(ffg_to_gor(0), 2050);
        let ffg = |r: i32| row_rank(Source::Ffg, &row("1", "A", "B", "", Some(r), ""));
        assert_eq!(ffg(0), Some(Rank::Dan(1)));
        assert_eq!(ffg(99), Some(Rank::Dan(1)));
        assert_eq!(ffg(250), Some(Rank::Dan(3)));
        assert_eq!(ffg(-1), Some(Rank::Kyu(1)));
        assert_eq!(ffg(-1450), Some(Rank::Kyu(15)));
        let aga = |h: i32| row_rank(Source::Aga, &row("1", "A", "B", "", Some(h), ""));
        assert_eq!(aga_to_gor(350), 2300);
        assert_eq!(aga_to_gor(-1230), 919);
        assert_eq!(aga(350), Some(Rank::Dan(3)));
        assert_eq!(aga(100), Some(Rank::Dan(1)));
        assert_eq!(aga(199), Some(Rank::Dan(1)));
        assert_eq!(aga(-100), Some(Rank::Kyu(1)));
        assert_eq!(aga(-199), Some(Rank::Kyu(1)));
        assert_eq!(aga(-1230), Some(Rank::Kyu(12)));
        assert_eq!(aga(-3000), Some(Rank::Kyu(30)));
        assert_eq!(aga(750), Some(Rank::Dan(7)));
    }

    /// OpenGotha's rating-list lookup: the list's id first (EGD PIN for the EGF list, the
    /// federation id otherwise), then the Latin name without case, spaces or accents.
    #[test]
    fn matches_by_id_then_latin_name() {
        let rows = vec![
            row("10000001", "Müller", "Hans", "3d", Some(2290), "Berl"),
            row("10000002", "Dupont", "Jean", "2k", Some(1900), "Pari"),
            row("10000003", "Wang", "Zihan", "5d", Some(2500), ""),
        ];
        let es = [
            who("10000003", "", ("王", "子涵"), ("Other", "Name")),
            who("", "", ("", ""), ("MULLER", "hans")),
            who("", "F123", ("", ""), ("Smith", "John")),
            who("99999999", "", ("", ""), ("dupont", "JEAN")),
        ];
        let m = match_entrants(Source::Egf, &es, &rows);
        assert_eq!(
            m,
            vec![
                Some((2, MatchedBy::Id)),
                Some((0, MatchedBy::LatinName)),
                None,
                Some((1, MatchedBy::LatinName))
            ]
        );
        // An FFG list reads the federation id, not the PIN.
        let ffg = vec![row("F123", "Nobody", "Else", "", Some(0), "")];
        assert_eq!(match_entrants(Source::Ffg, &es, &ffg), vec![None, None, Some((0, MatchedBy::Id)), None]);
    }

    /// A CSV list of a Chinese association: the Chinese name matches; a name two rows share
    /// matches neither, and a row goes to one entrant only.
    #[test]
    fn chinese_names_and_ambiguity() {
        let rows = vec![
            row("A1", "李", "四", "2d", None, "上海棋院"),
            row("A2", "张", "三", "1d", None, ""),
            row("A3", "张", "三", "3d", None, ""),
        ];
        let es = [
            who("", "", ("李", "四"), ("", "")),
            who("", "", ("张", "三"), ("", "")),
            who("", "", ("李", "四"), ("", "")),
        ];
        let m = match_entrants(Source::Csv, &es, &rows);
        assert_eq!(m, vec![None, None, None]);
        let one = [who("", "", ("李", "四"), ("Li", "Si"))];
        assert_eq!(match_entrants(Source::Csv, &one, &rows), vec![Some((0, MatchedBy::ChineseName))]);
    }

    /// The differences shown before anything is applied: rank, rating (GoR), club and id;
    /// what is the same, or what the list leaves empty, is no change.
    #[test]
    fn changes_name_only_what_differs() {
        let r = row("10000001", "Müller", "Hans", "3d", Some(2290), "Berl");
        let now = Current { rank: Some(Rank::Dan(2)), rating: Some(2290), unit: "Berlin", id: "" };
        let c = changes(Source::Egf, now, &r);
        assert_eq!(c.rank, Some(Rank::Dan(3)));
        assert_eq!(c.rating, None);
        assert_eq!(c.unit.as_deref(), Some("Berl"));
        assert_eq!(c.id.as_deref(), Some("10000001"));
        let same = Current { rank: Some(Rank::Dan(3)), rating: Some(2290), unit: "Berl", id: "10000001" };
        assert!(changes(Source::Egf, same, &r).is_empty());
        let ffg = row("F1", "A", "B", "", Some(250), "");
        let c = changes(Source::Ffg, same, &ffg);
        assert_eq!((c.rank, c.rating, c.unit), (None, Some(2300), None));
    }
}
