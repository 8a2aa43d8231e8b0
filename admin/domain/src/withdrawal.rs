//! A withdrawal (退赛): its reason and its date, checked. The entrant misses every round from
//! the one after the last published round (seed 000 Art. 15.2 forbids withdrawing without
//! cause; Tengen pairs a withdrawn player no more, and the games played stand); the date is the venue's date of the
//! withdrawal, not later than today there; the reason is what the organizer records for the
//! audit and, when they choose, for the public.

use chrono::NaiveDate;

/// A withdrawal as checked: the reason (trimmed, never empty), the venue's date, and whether
/// the public pages and documents show the reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Withdrawal {
    pub reason: String,
    pub on: NaiveDate,
    pub reason_public: bool,
}

/// Why a withdrawal form is refused; each names its field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    ReasonMissing,
    DateUnreadable,
    /// Later than today at the venue.
    DateInFuture,
}

impl Refusal {
    /// The form field the refusal is about.
    pub fn field(self) -> &'static str {
        match self {
            Refusal::ReasonMissing => "withdrawal_reason",
            Refusal::DateUnreadable | Refusal::DateInFuture => "withdrawn_on",
        }
    }
}

/// Check a withdrawal as typed: `date` empty is `today` (the venue's date), a date later than
/// `today` is refused, the reason is required (its characters are checked as every typed text
/// is, by `text::check`, where the form is read).
pub fn check(
    reason: &str,
    date: &str,
    reason_public: bool,
    today: NaiveDate,
) -> Result<Withdrawal, Vec<Refusal>> {
    let mut refused = Vec::new();
    let reason = reason.trim();
    if reason.is_empty() {
        refused.push(Refusal::ReasonMissing);
    }
    let on = match date.trim() {
        "" => Some(today),
        d => match crate::event_time::parse_date(d) {
            Some(on) if on > today => {
                refused.push(Refusal::DateInFuture);
                None
            }
            Some(on) => Some(on),
            None => {
                refused.push(Refusal::DateUnreadable);
                None
            }
        },
    };
    match on {
        Some(on) if refused.is_empty() => Ok(Withdrawal { reason: reason.to_string(), on, reason_public }),
        _ => Err(refused),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(s: &str) -> NaiveDate {
        crate::event_time::parse_date(s).unwrap()
    }

    /// Seed 000 Art. 15.2 (退赛): a withdrawal records its reason and the venue's date, today
    /// when none is typed.
    #[test]
    fn withdrawal_takes_today_and_requires_a_reason() {
        let today = day("2026-12-05");
        let w = check(" 身体不适 ", "", false, today).unwrap();
        assert_eq!(w, Withdrawal { reason: "身体不适".into(), on: today, reason_public: false });
        assert_eq!(check("家中有事", "2026-12-04", true, today).unwrap().on, day("2026-12-04"));
        assert_eq!(check("  ", "", false, today), Err(vec![Refusal::ReasonMissing]));
    }

    /// Seed 000 Art. 15.2 (退赛): the date of a withdrawal is not later than today at the venue,
    /// and a date that cannot be read is refused with the missing reason beside it.
    #[test]
    fn withdrawal_date_is_not_in_the_future() {
        let today = day("2026-12-05");
        assert_eq!(check("病", "2026-12-06", false, today), Err(vec![Refusal::DateInFuture]));
        assert_eq!(
            check("", "12/05", false, today),
            Err(vec![Refusal::ReasonMissing, Refusal::DateUnreadable])
        );
        assert_eq!(Refusal::DateInFuture.field(), "withdrawn_on");
    }
}
