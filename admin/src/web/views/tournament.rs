//! The overview page (`templates/tournament.html`) as the public sees it; the staff's
//! handler adds the staff list and forms.

use super::pages::{Chrome, TournamentPage};
use super::text::{quarters_text, settings_text};
use crate::db::tournaments::TournamentRow;
use crate::domain::settings::TournamentSettings;
use crate::i18n::tr;
use crate::i18n::Lang;

/// The overview page as the public sees it (the staff's adds the staff list and forms).
pub fn tournament_page(
    c: Chrome,
    lang: Lang,
    t: TournamentRow,
    n_entrants: i64,
    published: u32,
    team: Option<crate::domain::team::event::TeamSettings>,
) -> TournamentPage {
    let s = t.settings();
    // A team event shows the rules its matches use (relay: seed 003, komi 3½), and its staff
    // see when the tournament's own rule set is the individual one.
    let rules = team.map(|ts| ts.game_rules(&s.ruleset)).unwrap_or_else(|| s.ruleset.clone());
    let preset_name = |r: &rules::ruleset::RuleSet| lang.rule_set(r.preset);
    let rules_flag = team.filter(|ts| c.staff && ts.keeps_individual_rules(&s.ruleset)).map(|_| {
        tr!(
            lang,
            "team.rules_flag",
            preset = preset_name(&s.ruleset),
            komi = quarters_text(s.ruleset.komi_q),
            relay_komi = quarters_text(rules.komi_q),
        )
    });
    let st = settings_text(lang, &TournamentSettings { ruleset: rules, ..s });
    TournamentPage {
        c,
        mcmahon: st.mcmahon,
        handicap: st.handicap,
        system: st.system,
        ruleset: st.ruleset,
        komi: st.komi,
        rules_flag,
        t,
        n_entrants,
        published,
        staff: Vec::new(),
        candidates: Vec::new(),
        staff_find: String::new(),
        is_organizer: false,
        chief_id: 0,
        time_control: st.time_control,
        lateness: st.lateness,
        check_in: None,
        prizes_published: false,
        event_id: 0,
        registration_open: false,
        ratings: None,
    }
}
