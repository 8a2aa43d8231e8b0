//! Stored rows that several aggregates read: the entrant row and its codes (the audit's
//! subjects name entrants, rounds load them for a draw). A leaf: it names no other module of
//! the store but the schema, so every module can use it without a circle.

use crate::schema::entrants;
use diesel::prelude::*;
use domain::entrant::{EntrantInput, EntrantStatus, Rank, Sex};
use domain::names;
use serde::Serialize;

#[derive(Debug, Clone, Queryable, Selectable, Serialize)]
#[diesel(table_name = entrants)]
pub struct EntrantRow {
    pub id: i32,
    pub tournament_id: i32,
    pub family_name_zh: String,
    pub given_name_zh: String,
    pub family_name_latin: String,
    pub given_name_latin: String,
    pub rank: String,
    pub rank_value: i32,
    pub rating: Option<i32>,
    pub unit: String,
    pub region: String,
    pub birth_date: Option<String>,
    pub sex: Option<String>,
    pub notes: String,
    pub status: String,
    pub version: i32,
    pub created_at: String,
    pub updated_at: String,
    /// The first round a withdrawn entrant misses; `None` with status withdrawn: every round
    /// (a status imported without its round).
    pub withdrawn_from_round: Option<i32>,
    /// The venue's date of the withdrawal (YYYY-MM-DD); `None` when not withdrawn or withdrawn
    /// before dates were kept.
    pub withdrawn_on: Option<String>,
    /// Why they withdrew, as the organizer typed it; empty when not withdrawn.
    pub withdrawal_reason: String,
    /// The organizer ticked 公开原因: public pages and documents show the reason too.
    pub withdrawal_reason_public: bool,
    /// The registry's person this entrant is (`store::persons`); `None`: not linked, or the
    /// person was deleted on request.
    pub person_id: Option<i32>,
    /// EGD PIN; empty when unknown.
    pub egd_pin: String,
    /// The id in the event's own federation's list; empty when unknown.
    pub federation_id: String,
}

impl EntrantRow {
    /// The name in its parts, for ordering and finding (`domain::names`).
    pub fn name(&self) -> names::Name<'_> {
        names::Name {
            family_zh: &self.family_name_zh,
            given_zh: &self.given_name_zh,
            family_latin: &self.family_name_latin,
            given_latin: &self.given_name_latin,
        }
    }

    pub fn name_zh(&self) -> String {
        format!("{}{}", self.family_name_zh, self.given_name_zh)
    }
    pub fn name_latin(&self) -> String {
        match (self.family_name_latin.is_empty(), self.given_name_latin.is_empty()) {
            (false, false) => format!("{} {}", self.family_name_latin, self.given_name_latin),
            _ => format!("{}{}", self.family_name_latin, self.given_name_latin),
        }
    }
    pub fn withdrawn(&self) -> bool {
        self.status == STATUS_WITHDRAWN
    }
    /// Withdrawn as of round `n` ("as of round N" is rounds 1..N and nothing later): they
    /// missed a round up to `n` by their withdrawal. A player who withdrew after round 5
    /// stands in the standings after round 5 as they played it.
    pub fn withdrawn_as_of(&self, n: u32) -> bool {
        self.withdrawn() && self.withdrawn_from_round.is_none_or(|f| i64::from(f) <= i64::from(n))
    }
    pub fn status(&self) -> EntrantStatus {
        if self.withdrawn() {
            EntrantStatus::Withdrawn
        } else {
            EntrantStatus::Active
        }
    }
    pub fn rank_parsed(&self) -> Option<Rank> {
        rank_from_code(&self.rank)
    }
    /// Back to the domain type (for edit forms and exports).
    pub fn input(&self) -> Option<EntrantInput> {
        Some(EntrantInput {
            family_name_zh: self.family_name_zh.clone(),
            given_name_zh: self.given_name_zh.clone(),
            family_name_latin: self.family_name_latin.clone(),
            given_name_latin: self.given_name_latin.clone(),
            rank: self.rank_parsed()?,
            rating: self.rating,
            unit: self.unit.clone(),
            region: self.region.clone(),
            birth_date: self
                .birth_date
                .as_deref()
                .and_then(|d| chrono::NaiveDate::parse_from_str(d, "%Y-%m-%d").ok()),
            sex: self.sex.as_deref().and_then(sex_from_code),
            notes: self.notes.clone(),
            egd_pin: self.egd_pin.clone(),
            federation_id: self.federation_id.clone(),
        })
    }
}

pub const STATUS_ACTIVE: &str = "active";
pub const STATUS_WITHDRAWN: &str = "withdrawn";

pub fn sex_code(s: Sex) -> &'static str {
    match s {
        Sex::M => "m",
        Sex::F => "f",
    }
}

pub fn sex_from_code(s: &str) -> Option<Sex> {
    match s {
        "m" => Some(Sex::M),
        "f" => Some(Sex::F),
        _ => None,
    }
}

pub fn rank_code(r: &Rank) -> String {
    r.notation()
}

pub fn rank_from_code(s: &str) -> Option<Rank> {
    Rank::parse(s).ok()
}
