//! Online registration (网上报名) of an event: what the organizer asks on the public form,
//! whether a registration may be made now (open, before the deadline, a group that takes
//! registrations and is not full), the states a registration goes through, and its reference.
//!
//! The name is always asked, and the rank too: an entrant is paired by rank, so a registration
//! without one could not become an entrant. A group's cap counts the group's entrants and the
//! registrations still waiting for the organizer (pending or asked to change): an accepted
//! registration is an entrant already, a rejected one takes no place.

use chrono::{DateTime, Days, NaiveDate, Utc};
use serde::{Deserialize, Serialize};

/// Whether the form asks a field, and whether it must be filled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum Ask {
    #[default]
    Off,
    Optional,
    Required,
}

impl Ask {
    pub fn code(self) -> &'static str {
        match self {
            Ask::Off => "off",
            Ask::Optional => "optional",
            Ask::Required => "required",
        }
    }

    /// A stored or posted code; anything else is `None`.
    pub fn parse(s: &str) -> Option<Ask> {
        [Ask::Off, Ask::Optional, Ask::Required].into_iter().find(|a| a.code() == s)
    }

    pub fn asked(self) -> bool {
        self != Ask::Off
    }
}

/// The fields of the form the organizer chooses (the name and the rank are always asked).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Fields {
    pub sex: Ask,
    pub birth_date: Ask,
    pub unit: Ask,
    /// A phone number or an e-mail address (one of them when required).
    pub contact: Ask,
}

/// The form's choosable fields, by their form names.
pub const FIELD_NAMES: [&str; 4] = ["sex", "birth_date", "unit", "contact"];

impl Fields {
    /// The ask of the field named `name` (one of [`FIELD_NAMES`]).
    pub fn get(&self, name: &str) -> Ask {
        match name {
            "sex" => self.sex,
            "birth_date" => self.birth_date,
            "unit" => self.unit,
            "contact" => self.contact,
            _ => Ask::Off,
        }
    }

    pub fn set(&mut self, name: &str, ask: Ask) {
        match name {
            "sex" => self.sex = ask,
            "birth_date" => self.birth_date = ask,
            "unit" => self.unit = ask,
            "contact" => self.contact = ask,
            _ => {}
        }
    }

    /// The required fields left empty: `filled(name)` says whether the form filled `name`.
    pub fn missing(&self, filled: impl Fn(&str) -> bool) -> Vec<&'static str> {
        FIELD_NAMES.into_iter().filter(|n| self.get(n) == Ask::Required && !filled(n)).collect()
    }
}

/// A group's part in registration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct GroupRule {
    /// The group takes registrations (it is one of the form's choices).
    pub takes: bool,
    /// At most this many entrants and waiting registrations; `None`: no cap.
    pub cap: Option<u32>,
}

/// Why a registration is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Refusal {
    /// The organizer has not opened registration, or closed it.
    Closed,
    /// The deadline has passed.
    Late,
    /// The group chosen does not take registrations.
    NotTaking,
    /// The group has reached its cap.
    Full,
}

/// Whether a registration for a group with `rule`, which holds `taken` places (entrants and
/// waiting registrations), may be made at `now`. A resubmission after a request to change
/// holds its place already: the caller leaves it out of `taken`.
pub fn admit(
    open: bool,
    deadline: Option<DateTime<Utc>>,
    now: DateTime<Utc>,
    rule: GroupRule,
    taken: u32,
) -> Result<(), Refusal> {
    if !open {
        return Err(Refusal::Closed);
    }
    if deadline.is_some_and(|d| now > d) {
        return Err(Refusal::Late);
    }
    if !rule.takes {
        return Err(Refusal::NotTaking);
    }
    if rule.cap.is_some_and(|cap| taken >= cap) {
        return Err(Refusal::Full);
    }
    Ok(())
}

/// Where a registration stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum State {
    /// 待审核: waiting for the organizer.
    Pending,
    /// 已接受: an entrant of its group.
    Accepted,
    /// 已拒绝, with the organizer's reason.
    Rejected,
    /// 请修改: the organizer asks for a change (a message); the registrant resubmits.
    Change,
}

impl State {
    pub const ALL: [State; 4] = [State::Pending, State::Change, State::Accepted, State::Rejected];

    pub fn code(self) -> &'static str {
        match self {
            State::Pending => "pending",
            State::Accepted => "accepted",
            State::Rejected => "rejected",
            State::Change => "change",
        }
    }

    pub fn parse(s: &str) -> Option<State> {
        State::ALL.into_iter().find(|st| st.code() == s)
    }

    /// Still waiting for the organizer or the registrant: it holds a place under the cap, and
    /// the organizer may still decide it.
    pub fn waiting(self) -> bool {
        matches!(self, State::Pending | State::Change)
    }

    /// The registrant may send the form again (only when asked to change).
    pub fn may_resubmit(self) -> bool {
        self == State::Change
    }
}

/// Longest phone number and e-mail address, in characters.
pub const MAX_PHONE_CHARS: usize = 30;
pub const MAX_EMAIL_CHARS: usize = 100;

/// A phone number as people write it: digits, at least five, with spaces, dashes, a leading
/// plus or brackets between them; full-width digits as a Chinese input method types them.
pub fn phone_ok(s: &str) -> bool {
    let s: String = s.chars().map(super::entrant::fullwidth_to_ascii).collect();
    s.chars().count() <= MAX_PHONE_CHARS
        && s.chars().filter(char::is_ascii_digit).count() >= 5
        && s.chars().all(|c| c.is_ascii_digit() || matches!(c, ' ' | '-' | '+' | '(' | ')'))
}

/// An e-mail address: one `@` with text either side, a dot in the domain, no spaces.
pub fn email_ok(s: &str) -> bool {
    let Some((user, domain)) = s.split_once('@') else { return false };
    s.chars().count() <= MAX_EMAIL_CHARS
        && !user.is_empty()
        && !domain.contains('@')
        && domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && !s.chars().any(|c| c.is_whitespace() || c.is_control())
}

/// The reference's alphabet: digits and capitals without the look-alikes 0/O, 1/I/L.
pub const REFERENCE_ALPHABET: &[u8] = b"23456789ABCDEFGHJKMNPQRSTUVWXYZ";
/// A reference's length: 31⁸ ≈ 8.5 × 10¹¹ references.
pub const REFERENCE_LEN: usize = 8;

/// The reference made of a random `seed` (the caller draws it: this crate reads no randomness).
pub fn reference_of(seed: u64) -> String {
    let base = REFERENCE_ALPHABET.len() as u64;
    let mut n = seed;
    (0..REFERENCE_LEN)
        .map(|_| {
            let c = REFERENCE_ALPHABET[(n % base) as usize] as char;
            n /= base;
            c
        })
        .collect()
}

/// A reference as typed: upper case, spaces and dashes dropped; `None` when it cannot be one.
pub fn typed_reference(s: &str) -> Option<String> {
    let r: String =
        s.chars().filter(|c| !c.is_whitespace() && *c != '-').flat_map(char::to_uppercase).collect();
    (r.len() == REFERENCE_LEN && r.bytes().all(|b| REFERENCE_ALPHABET.contains(&b))).then_some(r)
}

/// How long registrations are kept after the event's last day, unless the organizer says
/// otherwise: China's PIPL (个人信息保护法 第十九条) keeps personal data no longer than its
/// purpose needs and leaves the period to the one who holds it; 180 days covers appeals,
/// prizes and a rating list's corrections, and then the contact data goes.
pub const DEFAULT_RETENTION_DAYS: u32 = 180;
/// The longest retention the form takes (ten years).
pub const MAX_RETENTION_DAYS: u32 = 3650;

/// A retention typed in the form: whole days, 1 to [`MAX_RETENTION_DAYS`].
pub fn parse_retention(s: &str) -> Option<u32> {
    s.trim().parse::<u32>().ok().filter(|d| (1..=MAX_RETENTION_DAYS).contains(d))
}

/// Whether an event that ended on `end` has kept its registrations past `retention_days` by
/// `today` (the caller reads the clock): the day after the last kept day.
pub fn purge_due(end: NaiveDate, retention_days: u32, today: NaiveDate) -> bool {
    end.checked_add_days(Days::new(u64::from(retention_days))).is_some_and(|last| today > last)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn at(h: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 12, 6, h, 0, 0).unwrap()
    }

    /// Decision D26 (网上报名): closed, late, a group not taking, a full group are refused,
    /// in that order; the cap counts the places already held.
    #[test]
    fn a_registration_is_admitted_only_open_in_time_and_under_the_cap() {
        let open = GroupRule { takes: true, cap: Some(2) };
        assert_eq!(admit(false, None, at(9), open, 0), Err(Refusal::Closed));
        assert_eq!(admit(true, Some(at(8)), at(9), open, 0), Err(Refusal::Late));
        assert_eq!(admit(true, Some(at(9)), at(9), open, 0), Ok(()), "at the deadline is in time");
        assert_eq!(
            admit(true, None, at(9), GroupRule { takes: false, cap: None }, 0),
            Err(Refusal::NotTaking)
        );
        assert_eq!(admit(true, None, at(9), open, 1), Ok(()));
        assert_eq!(admit(true, None, at(9), open, 2), Err(Refusal::Full));
        assert_eq!(admit(true, None, at(9), GroupRule { takes: true, cap: None }, 500), Ok(()));
    }

    /// Decision D26 (网上报名): only a registration asked to change may be sent again;
    /// pending and asked-to-change ones hold a place.
    #[test]
    fn states_round_trip_and_say_what_they_allow() {
        for s in State::ALL {
            assert_eq!(State::parse(s.code()), Some(s));
        }
        assert!(State::Change.may_resubmit() && !State::Pending.may_resubmit());
        assert!(State::Pending.waiting() && State::Change.waiting());
        assert!(!State::Accepted.waiting() && !State::Rejected.waiting());
    }

    /// Decision D26 (网上报名): a reference is 8 characters without look-alikes, read back
    /// as typed in lower case or with a dash.
    #[test]
    fn references_have_no_look_alikes_and_read_back() {
        for seed in [0u64, 1, 42, u64::MAX, 0x1234_5678_9abc_def0] {
            let r = reference_of(seed);
            assert_eq!(r.len(), REFERENCE_LEN);
            assert!(!r.contains(['0', 'O', '1', 'I', 'L']), "{r}");
            assert_eq!(typed_reference(&r.to_lowercase()), Some(r.clone()));
            assert_eq!(typed_reference(&format!("{}-{}", &r[..4], &r[4..])), Some(r));
        }
        assert_ne!(reference_of(1), reference_of(2));
        assert_eq!(typed_reference("ABCD0EFG"), None);
        assert_eq!(typed_reference("ABC"), None);
    }

    /// PIPL (个人信息保护法 第十九条, kept no longer than needed): registrations go the day after the last
    /// day of the retention counted from the event's end, not before.
    #[test]
    fn registrations_are_purged_the_day_after_their_retention() {
        let d = |m, day| NaiveDate::from_ymd_opt(2026, m, day).unwrap();
        let end = d(1, 10);
        assert!(!purge_due(end, 180, d(7, 9)), "day 180 is still kept");
        assert!(purge_due(end, 180, d(7, 10)));
        assert!(!purge_due(end, 1, end));
        assert_eq!(parse_retention(" 180 "), Some(180));
        for bad in ["0", "-1", "3651", "1.5", ""] {
            assert_eq!(parse_retention(bad), None, "{bad}");
        }
    }

    /// Decision D26 (网上报名): a contact is a phone number or an e-mail address as
    /// people write them.
    #[test]
    fn phones_and_email_addresses_are_checked() {
        for ok in ["13800138000", "+86 138-0013-8000", "(010) 6512 3456", "１３８００１３８０００"]
        {
            assert!(phone_ok(ok), "{ok}");
        }
        for bad in ["123", "138x0013800", "1380013800013800138000138001380013800"] {
            assert!(!phone_ok(bad), "{bad}");
        }
        assert!(email_ok("wang.wei@example.cn"));
        for bad in ["wang", "@example.cn", "wang@cn", "wang@ex ample.cn", "a@b@c.cn", "wang@.cn"] {
            assert!(!email_ok(bad), "{bad}");
        }
    }

    /// Decision D26 (网上报名): a required field left empty is named; optional ones are not.
    #[test]
    fn required_fields_left_empty_are_named() {
        let mut f = Fields::default();
        f.set("sex", Ask::Required);
        f.set("unit", Ask::Optional);
        f.set("contact", Ask::Required);
        assert_eq!(f.missing(|_| false), vec!["sex", "contact"]);
        assert_eq!(f.missing(|n| n == "sex"), vec!["contact"]);
        assert_eq!(Ask::parse("required"), Some(Ask::Required));
        assert_eq!(Ask::parse("x"), None);
    }
}
