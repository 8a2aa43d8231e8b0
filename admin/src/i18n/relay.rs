//! A relay match's events, effects and refusals in the reader's language, naming people by
//! the caller's `person` (the page's rosters; never a number parsed back out of a sentence).
//! Moved here from `domain::team::relay`, which returns only the typed values; the sentences
//! are still `format!` pairs here rather than catalog keys (ARCHITECTURE.md, "Not yet").

use super::Lang;
use crate::db::team_matches::MatchError;
use crate::domain::team::ending::{EndRecord, Ending};
use crate::domain::team::lineup::Section;
use crate::domain::team::relay::{
    Card, Effect, Event, PlayoffClock, Refusal, RelayMatch, RequestKind, SetupError, SubstitutionKind,
};
use crate::domain::team::standings::TeamOutcome;
use crate::domain::team::withdraw::WithdrawError;
use crate::domain::team::PersonId;
use rules::board::Color;

impl Lang {
    /// What was recorded, as the event log and the withdrawal form name it.
    pub fn relay_event(self, e: &Event, person: &dyn Fn(PersonId) -> String) -> String {
        match self {
            Lang::En => event_en(e, person),
            Lang::Zh => event_zh(e, person),
        }
    }

    /// One effect of an accepted event.
    pub fn relay_effect(self, e: &Effect, person: &dyn Fn(PersonId) -> String) -> String {
        match self {
            Lang::En => effect_en(e, person),
            Lang::Zh => effect_zh(e, person),
        }
    }

    /// Why an event cannot be withdrawn (the refusal of the later event named).
    pub fn withdraw_error(self, e: &WithdrawError, person: &dyn Fn(PersonId) -> String) -> String {
        match e {
            WithdrawError::UnknownEvent { seq } => self.tf("relay.wd_unknown", &[seq]),
            WithdrawError::AlreadyWithdrawn { seq } => self.tf("relay.wd_already", &[seq]),
            WithdrawError::LaterEventFails { seq, later, refusal } => {
                self.tf("relay.wd_later_fails", &[seq, later, &self.relay_refusal(refusal, person)])
            }
        }
    }

    /// Why an event was refused.
    pub fn relay_refusal(self, e: &Refusal, person: &dyn Fn(PersonId) -> String) -> String {
        match self {
            Lang::En => refusal_en(e, person),
            Lang::Zh => refusal_zh(e, person),
        }
    }
}

/// A side as the sentences below name it: "Black" / "黑方" (the catalog's `colour.*`).
fn side_en(c: Color) -> &'static str {
    Lang::En.side(c)
}

fn side_zh(c: Color) -> &'static str {
    Lang::Zh.side(c)
}

/// The English plural ending of a count.
fn plural(n: u32) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// When a section's line-up is due: 5 minutes before a section (Art. 10.1), at the end of the
/// play-off's 3-minute preparation (Art. 12).
fn due_en(s: Section) -> &'static str {
    match s {
        Section::Playoff => "was due when the 3-minute preparation ended (Art. 12)",
        _ => "was due 5 minutes before the section starts (Art. 10.1)",
    }
}

fn due_zh(s: Section) -> &'static str {
    match s {
        Section::Playoff => "须在3分钟准备时间结束时提交（第12条）",
        _ => "须在本节开始前5分钟提交（第10条第1款）",
    }
}

fn card_en(c: Card) -> &'static str {
    match c {
        Card::Advice => "advice",
        Card::Yellow => "a yellow card",
        Card::Red => "a red card",
    }
}

fn card_zh(c: Card) -> &'static str {
    match c {
        Card::Advice => "劝告",
        Card::Yellow => "黄牌",
        Card::Red => "红牌",
    }
}

/// What was recorded, as the event log and the withdrawal form name it.
fn event_en(e: &Event, person: &dyn Fn(PersonId) -> String) -> String {
    match e {
        Event::SubmitLineup { side, section, players } => format!(
            "{} line-up for {}: {}, {}",
            side_en(*side),
            Lang::En.section(*section),
            person(players[0]),
            person(players[1])
        ),
        Event::Move { player } => format!("Move by {}", person(*player)),
        Event::ClaimOrderError { claimant } => format!("Order error claimed by {}", side_en(*claimant)),
        Event::RequestSubstitution { out, incoming } => {
            format!("Substitution requested: {} for {}", person(*incoming), person(*out))
        }
        Event::RequestTimeout { side } => format!("Timeout requested by {}", side_en(*side)),
        Event::ConfirmRequest { side } => format!("{} confirms its request", side_en(*side)),
        Event::CancelRequest { side } => format!("{} cancels its request", side_en(*side)),
        Event::SubstituteSeated { side } => format!("{}'s substitute seated", side_en(*side)),
        Event::AnnulSubstitution { side } => format!("{}'s substitution annulled", side_en(*side)),
        Event::TimeoutEnd { side } => format!("{}'s timeout ends", side_en(*side)),
        Event::ReplaceSentOff { side, incoming } => {
            format!("{} replaces its red-carded player with {}", side_en(*side), person(*incoming))
        }
        Event::Card { person: p, card, .. } => format!(
            "{} to {}",
            match card {
                Card::Advice => "Advice",
                Card::Yellow => "Yellow card",
                Card::Red => "Red card",
            },
            person(*p)
        ),
        Event::ByoYomiTimeout { player } => {
            format!("Last byo-yomi period exceeded by {}", person(*player))
        }
        Event::SectionEnd { .. } => "End of the section".into(),
        Event::Clocks { move_number: Some(n), .. } => format!("Clock reading after move {n}"),
        Event::Clocks { move_number: None, .. } => "Clock reading".into(),
        Event::Count { black_halves, .. } => {
            format!("Count: Black {}{}", black_halves / 2, if black_halves % 2 == 1 { "½" } else { "" })
        }
        Event::Resign { side, by: None } => format!("{} resigns", side_en(*side)),
        Event::Resign { side, by: Some(p) } => {
            format!("{} resigns, confirmed by {}", side_en(*side), person(*p))
        }
        Event::End { ending, side, .. } => match side {
            Some(c) => format!("Match ended ({}) against {}", ending.code(), side_en(*c)),
            None => format!("Match ended ({})", ending.code()),
        },
        Event::RestoreForPlayoff => "Game restored for the play-off".into(),
        Event::MovesInOrder { through } => format!("Moves in order up to move {through}"),
    }
}

fn event_zh(e: &Event, person: &dyn Fn(PersonId) -> String) -> String {
    match e {
        Event::SubmitLineup { side, section, players } => format!(
            "{}{}出场名单：{}、{}",
            side_zh(*side),
            Lang::Zh.section(*section),
            person(players[0]),
            person(players[1])
        ),
        Event::Move { player } => format!("{}落子", person(*player)),
        Event::ClaimOrderError { claimant } => format!("{}提出行棋次序错误", side_zh(*claimant)),
        Event::RequestSubstitution { out, incoming } => {
            format!("申请换人：{}换下{}", person(*incoming), person(*out))
        }
        Event::RequestTimeout { side } => format!("{}申请暂停", side_zh(*side)),
        Event::ConfirmRequest { side } => format!("{}确认申请", side_zh(*side)),
        Event::CancelRequest { side } => format!("{}取消申请", side_zh(*side)),
        Event::SubstituteSeated { side } => format!("{}替补就位", side_zh(*side)),
        Event::AnnulSubstitution { side } => format!("{}换人被废除", side_zh(*side)),
        Event::TimeoutEnd { side } => format!("{}暂停结束", side_zh(*side)),
        Event::ReplaceSentOff { side, incoming } => {
            format!("{}以{}替换红牌罚下队员", side_zh(*side), person(*incoming))
        }
        Event::Card { person: p, card, .. } => format!(
            "{}{}",
            person(*p),
            match card {
                Card::Advice => "劝告",
                Card::Yellow => "黄牌",
                Card::Red => "红牌",
            }
        ),
        Event::ByoYomiTimeout { player } => format!("{}最后一次读秒超时", person(*player)),
        Event::SectionEnd { .. } => "本节结束".into(),
        Event::Clocks { move_number: Some(n), .. } => format!("第{n}手后计时读数"),
        Event::Clocks { move_number: None, .. } => "计时读数".into(),
        Event::Count { black_halves, .. } => {
            format!("数子：黑方{}{}子", black_halves / 2, if black_halves % 2 == 1 { "½" } else { "" })
        }
        Event::Resign { side, by: None } => format!("{}认输", side_zh(*side)),
        Event::Resign { side, by: Some(p) } => format!("{}认输，由{}确认", side_zh(*side), person(*p)),
        Event::End { ending, side, .. } => match side {
            Some(c) => format!("比赛结束（{}）：{}", ending.code(), side_zh(*c)),
            None => format!("比赛结束（{}）", ending.code()),
        },
        Event::RestoreForPlayoff => "复原棋局进行节棋".into(),
        Event::MovesInOrder { through } => format!("按序落子至第{through}手"),
    }
}

fn effect_en(e: &Effect, person: &dyn Fn(PersonId) -> String) -> String {
    match e {
        Effect::LineupAccepted { side, section, players, replaced } => format!(
            "{} line-up for {} {}: {} then {}",
            side_en(*side),
            Lang::En.section(*section),
            if *replaced { "replaced" } else { "accepted" },
            person(players[0]),
            person(players[1])
        ),
        Effect::LineupLate { side, section, secs } => format!(
            "{}'s line-up for {} came {secs} s after its deadline ({}): recorded; the referee decides",
            side_en(*side),
            Lang::En.section(*section),
            due_en(*section)
        ),
        Effect::SubstitutionAnnulled { side, out, incoming, left } => format!(
            "{}'s substitution of {} for {} is annulled (Art. 10.5 (3)): {} returns; it stays used, {left} left",
            side_en(*side),
            person(*incoming),
            person(*out),
            person(*out)
        ),
        Effect::TimeoutEnded { side, secs } => {
            format!("{}'s timeout ended after {secs} s", side_en(*side))
        }
        Effect::Seated { section, order } => format!(
            "{}: clockwise order {}",
            Lang::En.section(*section),
            order.iter().map(|&p| person(p)).collect::<Vec<_>>().join(", ")
        ),
        Effect::MovePlayed { number, side, player } => {
            format!("Move {number}: {} {}", side_en(*side), person(*player))
        }
        Effect::OrderErrorClaimable { number, side, player, claimant } => format!(
            "Move {number} by {} {} is out of order; it stands. {} may claim it before placing a stone and chooses its next player (seed 003 Art. 17.7)",
            side_en(*side),
            person(*player),
            side_en(*claimant)
        ),
        Effect::OrderErrorLapsed { number, side } => format!(
            "The move-order error of {} at move {number} was not claimed in time and lapses (Art. 17.7)",
            side_en(*side)
        ),
        Effect::Ruling { said } => Lang::En.effect(said, &|p| Some(person(p))),
        Effect::RedCountsAsSubstitution { side, left } => format!(
            "The red card counts as one of {}'s substitutions (Art. 24.3): {left} left",
            side_en(*side)
        ),
        Effect::AnySubstitutionGained { side } => format!(
            "{}'s opponent had no substitution left: {} gains one substitution of any player, including one who has played (Art. 24.4)",
            side_en(*side),
            side_en(*side)
        ),
        Effect::SeatVacant { side, person: p } => format!(
            "{} {} leaves the board: {} names a replacement before play continues",
            side_en(*side),
            person(*p),
            side_en(*side)
        ),
        Effect::StaysOn { side, person: p } => format!(
            "{} has no player who may come on: {} stays on and {} owes a forced pass (Art. 24.4)",
            side_en(*side),
            person(*p),
            side_en(*side)
        ),
        Effect::LineupReopened { side, section } => {
            format!("{}'s line-up for {} must be submitted again", side_en(*side), Lang::En.section(*section))
        }
        Effect::ForcedPass { number, side, player } => {
            format!("Move {number}: forced pass by {} {}", side_en(*side), person(*player))
        }
        Effect::RequestMade { side, request, order } => {
            let what = match request {
                RequestKind::Substitution { out, incoming } => {
                    format!("substitution {} for {}", person(*incoming), person(*out))
                }
                RequestKind::Timeout => "timeout".into(),
            };
            let who = order.player.map(person).unwrap_or_else(|| "either player".into());
            format!(
                "{} requests a {what}; clock stopped. Next: move {}, {} {who}. Confirm or cancel (Art. 10.5)",
                side_en(*side),
                order.next_move,
                side_en(order.side)
            )
        }
        Effect::RequestCancelled { side } => {
            format!("{} cancelled its request; nothing is used", side_en(*side))
        }
        Effect::SubstitutionMade { side, out, incoming, kind, left } => {
            let how = match kind {
                SubstitutionKind::Regular => format!("{left} substitution{} left", plural(*left)),
                SubstitutionKind::Any => "the extra substitution of Art. 24.4".into(),
                SubstitutionKind::RedCardReplacement => "replaces a red-carded player".into(),
            };
            format!("{}: {} comes on for {} ({how})", side_en(*side), person(*incoming), person(*out))
        }
        Effect::SeatingDelay { side, secs, limit } => format!(
            "{}'s substitute took {secs} s to be seated (limit {limit} s): the referee may give advice, a yellow card or annul the substitution (Art. 10.5)",
            side_en(*side)
        ),
        Effect::SeatedInTime { side, secs } => {
            format!("{}'s substitute seated after {secs} s", side_en(*side))
        }
        Effect::TimeoutTaken { side, left } => {
            format!("{} takes a timeout: {left} left", side_en(*side))
        }
        Effect::SectionEnded { section, moves, .. } => {
            format!("End of {} after move {moves}; 5-minute break, clock stopped", Lang::En.section(*section))
        }
        Effect::MovesPlayed { first, last } if first == last => format!("Move {first} played in order"),
        Effect::MovesPlayed { first, last } => format!("Moves {first}–{last} played in order"),
        Effect::GameOver { said, .. } => Lang::En.effect(said, &|p| Some(person(p))),
        Effect::PlayoffRequired => {
            "Knockout draw: the play-off follows from move 144 (Art. 12)".into()
        }
        Effect::Ended { side: Some(c), .. } => format!("The match ends against {}", side_en(*c)),
        Effect::Ended { side: None, .. } => "The match ends by the chief arbiter's ruling".into(),
        Effect::PlayoffStarted { restored_to, clocks, clocks_after, .. } => format!(
            "Position restored after move {restored_to}; each side fields any two players, with its remaining time (Black {}, White {}: the clocks after move {clocks_after}), one substitution and one timeout (Art. 12)",
            Lang::En.clock_reading(&clocks[0]),
            Lang::En.clock_reading(&clocks[1])
        ),
        Effect::ClocksRecorded { move_number, clocks } => format!(
            "Clocks after move {move_number}: Black {}, White {} (Art. 22.4)",
            Lang::En.clock_reading(&clocks[0]),
            Lang::En.clock_reading(&clocks[1])
        ),
        Effect::MatchDecided { outcome, points, playoff } => format!(
            "{}{}; match points Black {}, White {}",
            match outcome {
                TeamOutcome::FirstWins => "Black wins",
                TeamOutcome::SecondWins => "White wins",
                TeamOutcome::Draw => "Draw",
                TeamOutcome::DoubleLoss => "Both teams lose",
                TeamOutcome::NoResult => "No result: the match is replayed",
            },
            if *playoff { " after the play-off" } else { "" },
            points[0],
            points[1]
        ),
    }
}

fn effect_zh(e: &Effect, person: &dyn Fn(PersonId) -> String) -> String {
    match e {
        Effect::LineupAccepted { side, section, players, replaced } => format!(
            "{}{}出场名单{}：{}、{}",
            side_zh(*side),
            Lang::Zh.section(*section),
            if *replaced { "已更换" } else { "已接受" },
            person(players[0]),
            person(players[1])
        ),
        Effect::LineupLate { side, section, secs } => format!(
            "{}{}出场名单超过截止时间{secs}秒提交（{}）：已记录，由裁判员处理",
            side_zh(*side),
            Lang::Zh.section(*section),
            due_zh(*section)
        ),
        Effect::SubstitutionAnnulled { side, out, incoming, left } => format!(
            "{}以{}换下{}的换人被废除（第10条第5款第3项）：{}回场；仍计一次换人，剩余{left}次",
            side_zh(*side),
            person(*incoming),
            person(*out),
            person(*out)
        ),
        Effect::TimeoutEnded { side, secs } => format!("{}暂停{secs}秒后结束", side_zh(*side)),
        Effect::Seated { section, order } => format!(
            "{}顺时针落子顺序：{}",
            Lang::Zh.section(*section),
            order.iter().map(|&p| person(p)).collect::<Vec<_>>().join("、")
        ),
        Effect::MovePlayed { number, side, player } => {
            format!("第{number}手：{}{}", side_zh(*side), person(*player))
        }
        Effect::OrderErrorClaimable { number, side, player, claimant } => format!(
            "第{number}手{}{}行棋次序错误，着手有效；{}须在落子前提出，并选择己方接续者（第17条第7款）",
            side_zh(*side),
            person(*player),
            side_zh(*claimant)
        ),
        Effect::OrderErrorLapsed { number, side } => {
            format!("{}第{number}手次序错误未及时提出，自动失效", side_zh(*side))
        }
        Effect::Ruling { said } => Lang::Zh.effect(said, &|p| Some(person(p))),
        Effect::RedCountsAsSubstitution { side, left } => {
            format!("红牌罚下视同{}换人1次（第24条第3款），剩余{left}次", side_zh(*side))
        }
        Effect::AnySubstitutionGained { side } => format!(
            "对方换人机会已用尽，{}增加一次任意换人机会（可换上已出场队员，第24条第4款）",
            side_zh(*side)
        ),
        Effect::SeatVacant { side, person: p } => {
            format!("{}{}下场，须指定替补后继续比赛", side_zh(*side), person(*p))
        }
        Effect::StaysOn { side, person: p } => format!(
            "{}无可上场队员：{}不下场继续比赛，加罚虚着一次（第24条第4款）",
            side_zh(*side),
            person(*p)
        ),
        Effect::LineupReopened { side, section } => {
            format!("{}{}出场名单须重新提交", side_zh(*side), Lang::Zh.section(*section))
        }
        Effect::ForcedPass { number, side, player } => {
            format!("第{number}手：{}{}虚着", side_zh(*side), person(*player))
        }
        Effect::RequestMade { side, request, order } => {
            let what = match request {
                RequestKind::Substitution { out, incoming } => {
                    format!("换人（{}换下{}）", person(*incoming), person(*out))
                }
                RequestKind::Timeout => "暂停".into(),
            };
            let who = order.player.map(person).unwrap_or_else(|| "任一队员".into());
            format!(
                "{}申请{what}，已停钟。棋序：第{}手，{}{who}。请确认或取消（第10条第5款）",
                side_zh(*side),
                order.next_move,
                side_zh(order.side)
            )
        }
        Effect::RequestCancelled { side } => format!("{}取消申请，不计次数", side_zh(*side)),
        Effect::SubstitutionMade { side, out, incoming, kind, left } => {
            let how = match kind {
                SubstitutionKind::Regular => format!("剩余{left}次"),
                SubstitutionKind::Any => "第24条第4款增加的换人机会".into(),
                SubstitutionKind::RedCardReplacement => "替换红牌罚下队员".into(),
            };
            format!("{}：{}换下{}（{how}）", side_zh(*side), person(*incoming), person(*out))
        }
        Effect::SeatingDelay { side, secs, limit } => format!(
            "{}替补用时{secs}秒就位（限{limit}秒），裁判可劝告、黄牌警告乃至废除本次替换（第10条第5款）",
            side_zh(*side)
        ),
        Effect::SeatedInTime { side, secs } => format!("{}替补{secs}秒就位", side_zh(*side)),
        Effect::TimeoutTaken { side, left } => format!("{}暂停，剩余{left}次", side_zh(*side)),
        Effect::SectionEnded { section, moves, .. } => {
            format!("{}于第{moves}手结束，休息5分钟，计时暂停", Lang::Zh.section(*section))
        }
        Effect::MovesPlayed { first, last } if first == last => format!("第{first}手按序落子"),
        Effect::MovesPlayed { first, last } => format!("第{first}至{last}手按序落子"),
        Effect::GameOver { said, .. } => Lang::Zh.effect(said, &|p| Some(person(p))),
        Effect::PlayoffRequired => "淘汰赛和棋：采用“节棋”办法，自第144手再次对弈（第12条）".into(),
        Effect::Ended { side: Some(c), .. } => format!("比赛结束，判{}", side_zh(*c)),
        Effect::Ended { side: None, .. } => "裁判长判罚，比赛结束".into(),
        Effect::PlayoffStarted { restored_to, clocks, clocks_after, .. } => format!(
            "棋局复原至第{restored_to}手；双方各派任意两名棋手，使用剩余时间（黑方{}，白方{}：第{clocks_after}手后的计时），各有一次换人和暂停的权利（第12条）",
            Lang::Zh.clock_reading(&clocks[0]),
            Lang::Zh.clock_reading(&clocks[1])
        ),
        Effect::ClocksRecorded { move_number, clocks } => format!(
            "第{move_number}手后计时：黑方{}，白方{}（第22条第4款）",
            Lang::Zh.clock_reading(&clocks[0]),
            Lang::Zh.clock_reading(&clocks[1])
        ),
        Effect::MatchDecided { outcome, points, playoff } => format!(
            "{}{}；场分：黑方{}，白方{}",
            if *playoff { "节棋后" } else { "" },
            match outcome {
                TeamOutcome::FirstWins => "黑方胜",
                TeamOutcome::SecondWins => "白方胜",
                TeamOutcome::Draw => "和棋",
                TeamOutcome::DoubleLoss => "双方均负",
                TeamOutcome::NoResult => "无胜负，重赛",
            },
            points[0],
            points[1]
        ),
    }
}

fn refusal_en(e: &Refusal, person: &dyn Fn(PersonId) -> String) -> String {
    match e {
        Refusal::MatchOver => "The match is over".into(),
        Refusal::PlayoffPending => {
            "The game was drawn in a knockout: restore the position for the play-off first (Art. 12)".into()
        }
        Refusal::NoPlayoffPending => "No play-off is pending".into(),
        Refusal::UnknownPerson { person: p } => format!("{} is in neither team", person(*p)),
        Refusal::NotOnTeam { person: p, team } => format!("{} is not on the list of {team}", person(*p)),
        Refusal::NotAPlayer { person: p } => {
            format!("{} is a leader or coach, not a player", person(*p))
        }
        Refusal::SamePlayerTwice { person: p } => {
            format!("{} is named twice in the line-up", person(*p))
        }
        Refusal::PlaysAnotherSection { person: p, section } => format!(
            "{} is in the line-up of {}: a player plays at most one section (seed 003 Art. 10.4)",
            person(*p),
            Lang::En.section(*section)
        ),
        Refusal::HasPlayed { person: p, section } => format!(
            "{} has already played in {}: a player who has played cannot come on again, and a substitute only finishes the current section (Art. 10.4)",
            person(*p),
            Lang::En.section(*section)
        ),
        Refusal::Barred { person: p } => format!(
            "{} was shown a red card and is barred from this game and the next (Art. 24.3)",
            person(*p)
        ),
        Refusal::LineupLate { section, deadline, at } => format!(
            "The line-up for {} {} and can no longer change: {} s late",
            Lang::En.section(*section),
            due_en(*section),
            at - deadline
        ),
        Refusal::SectionClosed { section } => {
            format!("{} has started or is over: its line-up can no longer change", Lang::En.section(*section))
        }
        Refusal::LineupMissing { side, section } => {
            format!("{} has not submitted its line-up for {}", side_en(*side), Lang::En.section(*section))
        }
        Refusal::NotOnBoard { person: p } => format!("{} is not at the board", person(*p)),
        Refusal::AlreadyOnBoard { person: p } => format!("{} is already at the board", person(*p)),
        Refusal::NotYourTurn { to_move } => format!(
            "It is {}'s turn (two consecutive moves: the second is void and a yellow card is shown, Art. 17.2)",
            side_en(*to_move)
        ),
        Refusal::NotThisPlayersTurn { person: p, expected } => {
            format!("It is {}'s turn, not {}'s", person(*expected), person(*p))
        }
        Refusal::SeatVacant { side } => {
            format!("{} must first name the replacement of its red-carded player", side_en(*side))
        }
        Refusal::RequestPending { side } => format!(
            "{} has a request pending: the clock is stopped until it is confirmed or cancelled (Art. 10.5)",
            side_en(*side)
        ),
        Refusal::NoRequestPending { side } => format!("{} has no request pending", side_en(*side)),
        Refusal::NoSubstitutionsLeft { side, limit } => format!(
            "{} has used its {limit} substitution{} (Art. 10.5)",
            side_en(*side),
            plural(*limit)
        ),
        Refusal::ReturningPlayer { person: p } => format!(
            "{} has already played and cannot come on again (Art. 10.4), unless the side has the extra substitution of Art. 24.4",
            person(*p)
        ),
        Refusal::NoTimeoutsLeft { side, limit } => format!(
            "{} has used its {limit} timeout{} (Art. 10.5)",
            side_en(*side),
            plural(*limit)
        ),
        Refusal::NoOrderErrorToClaim { claimant } => format!(
            "There is no move-order error of {} to claim: a claim must come before the claimant places a stone (Art. 17.7)",
            side_en(claimant.opponent())
        ),
        Refusal::NotInPlay => "No section is in play".into(),
        Refusal::SectionNotComplete { section, moves, last } => format!(
            "{} ends after move {last}; only {moves} moves have been played (Art. 10.2)",
            Lang::En.section(*section)
        ),
        Refusal::NoSectionToEnd => {
            "Only sections 1 and 2 end by move number; section 3 ends with the game".into()
        }
        Refusal::NoVacancy { side } => format!("{} has no red-carded player to replace", side_en(*side)),
        Refusal::NoSubstitutionToSeat { side } => {
            format!("{} has no substitute waiting to be seated", side_en(*side))
        }
        Refusal::AlreadySentOff { person: p } => {
            format!("{} has already been sent off in this game", person(*p))
        }
        Refusal::MovesNotAhead { moves, through } => {
            format!("Move {through} has already been played: the game is at move {moves}")
        }
        Refusal::BeyondQuota { section, last } => format!(
            "{} ends after move {last}: moves beyond it cost a stone each (Art. 17.8) and are entered one by one",
            Lang::En.section(*section)
        ),
        Refusal::ChooseNextPlayer { side } => format!(
            "After the order error {} chooses its next player (Art. 17.7): enter that move with its player",
            side_en(*side)
        ),
        Refusal::ClocksAhead { move_number, moves } => format!(
            "Move {move_number} has not been played yet: the game is at move {moves}"
        ),
        Refusal::ClocksBeforePlayoff { move_number, restored_to } => format!(
            "The 节棋 play-off restored the game after move {restored_to}: a reading after move {move_number} of the original game can no longer be added"
        ),
        Refusal::PlayoffClocksMissing { rule, move_number } => format!(
            "The 节棋 play-off is played with each side's remaining time, byo-yomi included (Art. 12): first record both clocks as they stood {} (after move {move_number}; Art. 22.4)",
            match rule {
                PlayoffClock::AtGameEnd => "at the end of the drawn game",
                PlayoffClock::AtSectionTwoEnd => "at the end of section 2",
            }
        ),
        Refusal::CardNotForOffence { offence, card, allowed } => format!(
            "{} is not the card for this offence ({}): the rules give {}",
            card_en(*card),
            offence.code(),
            allowed.iter().map(|c| card_en(*c)).collect::<Vec<_>>().join(" or ")
        ),
        Refusal::NoSubstitutionToAnnul { side } => format!(
            "{} has no substitution to annul: only the last one, before the next move (Art. 10.5 (3))",
            side_en(*side)
        ),
        Refusal::NoTimeoutRunning { side } => format!("{} has no timeout running", side_en(*side)),
        Refusal::TimeoutEndsBefore { side } => {
            format!("{}'s timeout cannot end before it was confirmed", side_en(*side))
        }
        Refusal::EndNeedsSide => "Say which side the ruling is against".into(),
        Refusal::EndReasonMissing => "Give the reason for the ruling".into(),
        Refusal::StillEligible { side, section, eligible } => format!(
            "{} still has {eligible} players who may play {} (Arts. 10.3, 10.4): it must hand in its line-up",
            side_en(*side),
            Lang::En.section(*section)
        ),
        Refusal::NoLineupDue { side } => format!(
            "{} owes no line-up now: a player short at the board during a section is Art. 24.4's case (the carded player stays on)",
            side_en(*side)
        ),
        Refusal::ResignerAtBoard { person: p } => format!(
            "{} is playing at the board: the executing leader confirms the resignation (Arts. 14, 10.1)",
            person(*p)
        ),
        Refusal::Ruling { error } => format!("The ruling cannot be applied: {}", Lang::En.ruling_error(error)),
    }
}

fn refusal_zh(e: &Refusal, person: &dyn Fn(PersonId) -> String) -> String {
    match e {
        Refusal::MatchOver => "本场比赛已结束".into(),
        Refusal::PlayoffPending => "淘汰赛和棋：须先复原棋局进行“节棋”（第12条）".into(),
        Refusal::NoPlayoffPending => "没有待进行的节棋".into(),
        Refusal::UnknownPerson { person: p } => format!("{}不在任何一队", person(*p)),
        Refusal::NotOnTeam { person: p, team } => format!("{}不在{team}的名单中", person(*p)),
        Refusal::NotAPlayer { person: p } => format!("{}是领队或教练，不是队员", person(*p)),
        Refusal::SamePlayerTwice { person: p } => format!("{}在名单中出现两次", person(*p)),
        Refusal::PlaysAnotherSection { person: p, section } => {
            format!("{}已列入{}名单：每队上场选手最多下满一节（第10条第4款）", person(*p), Lang::Zh.section(*section))
        }
        Refusal::HasPlayed { person: p, section } => format!(
            "{}已在{}上场：已上过场的选手不得再次上场，替补选手最多只能下满本节（第10条第4款）",
            person(*p),
            Lang::Zh.section(*section)
        ),
        Refusal::Barred { person: p } => {
            format!("{}被出示红牌，禁止参加本局及下一局比赛（第24条第3款）", person(*p))
        }
        Refusal::LineupLate { section, deadline, at } => format!(
            "{}出场名单{}，已不能更改，已迟{}秒",
            Lang::Zh.section(*section),
            due_zh(*section),
            at - deadline
        ),
        Refusal::SectionClosed { section } => format!("{}已开始或已结束，名单不能再改", Lang::Zh.section(*section)),
        Refusal::LineupMissing { side, section } => {
            format!("{}尚未提交{}出场名单", side_zh(*side), Lang::Zh.section(*section))
        }
        Refusal::NotOnBoard { person: p } => format!("{}不在场上", person(*p)),
        Refusal::AlreadyOnBoard { person: p } => format!("{}已在场上", person(*p)),
        Refusal::NotYourTurn { to_move } => {
            format!("轮到{}落子（连下两着：判第二着无效并黄牌警告，第17条第2款）", side_zh(*to_move))
        }
        Refusal::NotThisPlayersTurn { person: p, expected } => {
            format!("轮到{}落子，不是{}", person(*expected), person(*p))
        }
        Refusal::SeatVacant { side } => format!("{}须先指定替换红牌罚下队员的替补", side_zh(*side)),
        Refusal::RequestPending { side } => {
            format!("{}有待确认的申请，确认或取消前停钟（第10条第5款）", side_zh(*side))
        }
        Refusal::NoRequestPending { side } => format!("{}没有待确认的申请", side_zh(*side)),
        Refusal::NoSubstitutionsLeft { side, limit } => {
            format!("{}的{limit}次换人机会已用完（第10条第5款）", side_zh(*side))
        }
        Refusal::ReturningPlayer { person: p } => format!(
            "{}已上过场，不得再次上场（第10条第4款），除非本方有第24条第4款增加的任意换人机会",
            person(*p)
        ),
        Refusal::NoTimeoutsLeft { side, limit } => {
            format!("{}的{limit}次暂停机会已用完（第10条第5款）", side_zh(*side))
        }
        Refusal::NoOrderErrorToClaim { claimant } => format!(
            "{}没有可提出的行棋次序错误：须在落子前提出（第17条第7款）",
            side_zh(claimant.opponent())
        ),
        Refusal::NotInPlay => "当前没有进行中的一节".into(),
        Refusal::SectionNotComplete { section, moves, last } => {
            format!("{}至第{last}手结束，目前只下了{moves}手（第10条第2款）", Lang::Zh.section(*section))
        }
        Refusal::NoSectionToEnd => "只有第1、2节按手数结束；第3节至终局".into(),
        Refusal::NoVacancy { side } => format!("{}没有需要替换的红牌罚下队员", side_zh(*side)),
        Refusal::NoSubstitutionToSeat { side } => format!("{}没有待就位的替补", side_zh(*side)),
        Refusal::AlreadySentOff { person: p } => format!("{}本局已被罚下", person(*p)),
        Refusal::MovesNotAhead { moves, through } => format!("第{through}手已经下过，目前为第{moves}手"),
        Refusal::BeyondQuota { section, last } => {
            format!("{}至第{last}手结束：超过的着手每手罚1子（第17条第8款），须逐手录入", Lang::Zh.section(*section))
        }
        Refusal::ChooseNextPlayer { side } => {
            format!("行棋次序错误后由{}选择己方接续者（第17条第7款）：请录入该手及其棋手", side_zh(*side))
        }
        Refusal::ClocksAhead { move_number, moves } => {
            format!("第{move_number}手尚未下出，目前为第{moves}手")
        }
        Refusal::ClocksBeforePlayoff { move_number, restored_to } => format!(
            "节棋已将棋局复原至第{restored_to}手：原局第{move_number}手后的计时不能再补录"
        ),
        Refusal::PlayoffClocksMissing { rule, move_number } => format!(
            "节棋使用双方所剩时间（包括读秒，第12条）：请先录入{}双方的计时（第{move_number}手后；第22条第4款）",
            match rule {
                PlayoffClock::AtGameEnd => "和棋终局时",
                PlayoffClock::AtSectionTwoEnd => "第二节结束时",
            }
        ),
        Refusal::CardNotForOffence { card, allowed, .. } => format!(
            "此项犯规不应判{}：规则规定为{}",
            card_zh(*card),
            allowed.iter().map(|c| card_zh(*c)).collect::<Vec<_>>().join("或")
        ),
        Refusal::NoSubstitutionToAnnul { side } => {
            format!("{}没有可废除的换人：只能废除最近一次、且其后尚未落子（第10条第5款第3项）", side_zh(*side))
        }
        Refusal::NoTimeoutRunning { side } => format!("{}没有进行中的暂停", side_zh(*side)),
        Refusal::TimeoutEndsBefore { side } => format!("{}暂停结束时间不能早于确认时间", side_zh(*side)),
        Refusal::EndNeedsSide => "请选择被判罚的一方".into(),
        Refusal::EndReasonMissing => "请填写判罚理由".into(),
        Refusal::StillEligible { side, section, eligible } => format!(
            "{}仍有{eligible}名队员可参加{}（第10条第3、4款），须提交出场名单",
            side_zh(*side),
            Lang::Zh.section(*section)
        ),
        Refusal::NoLineupDue { side } => {
            format!("{}当前无须提交出场名单：比赛中场上缺人按第24条第4款处理（被罚队员不下场）", side_zh(*side))
        }
        Refusal::ResignerAtBoard { person: p } => {
            format!("{}正在场上对局：认输由执行领队确认（第14条、第10条第1款）", person(*p))
        }
        Refusal::Ruling { error } => format!("判罚无法执行：{}", Lang::Zh.ruling_error(error)),
    }
}

/// The catalog key of an ending (its label with the article).
pub fn ending_key(e: Ending) -> &'static str {
    match e {
        Ending::Forfeit => "relay.end_forfeit",
        Ending::Withdrawal => "relay.end_withdrawal",
        Ending::LossStoneMoved => "relay.end_loss_stone_moved",
        Ending::LossScattered => "relay.end_loss_scattered",
        Ending::LossCheating => "relay.end_loss_cheating",
        Ending::NoEligiblePlayer => "relay.end_no_eligible_player",
        Ending::DoubleLossStoneMoved => "relay.end_double_loss_stone_moved",
        Ending::DoubleLossScattered => "relay.end_double_loss_scattered",
        Ending::DoubleLossCheating => "relay.end_double_loss_cheating",
        Ending::DrawStoneMoved => "relay.end_draw_stone_moved",
        Ending::DrawScattered => "relay.end_draw_scattered",
        Ending::ReplayStoneMoved => "relay.end_replay_stone_moved",
        Ending::ReplayScattered => "relay.end_replay_scattered",
    }
}

impl Lang {
    /// 黑方 / Black.
    pub fn side_name(self, c: Color) -> &'static str {
        match c {
            Color::Black => self.t("colour.black"),
            Color::White => self.t("colour.white"),
        }
    }

    /// An ending as a line: "Forfeit (Arts. 15.2, 23.2) against White — reason (ruled by X)".
    pub fn ending_text(self, r: &EndRecord) -> String {
        let against = r.side.map(|c| self.tf("relay.end_against", &[&self.side_name(c)])).unwrap_or_default();
        self.tf("relay.end_what", &[&self.t(ending_key(r.ending)), &against, &r.reason, &r.ruled_by])
    }

    /// Why a relay match cannot start (or be printed) yet.
    pub fn match_not_ready(self, e: &MatchError) -> String {
        match e {
            MatchError::NoStart => self.t("relay.no_start").to_string(),
            MatchError::Setup(SetupError::Roster { side, error }) => {
                format!("{}: {}", self.side_name(*side), self.roster_error(error))
            }
            MatchError::Setup(SetupError::SharedPerson(_)) => self.t("relay.err_shared_person").to_string(),
            MatchError::Setup(SetupError::SameTeam) => self.t("relay.err_same_team").to_string(),
            MatchError::Setup(SetupError::UnknownBarred(p)) => self.tf("relay.err_unknown_barred", &[p]),
            other => format!("{other:?}"),
        }
    }

    /// How a relay match ended besides the result itself: the ruling with its article, reason
    /// and who ruled, or who confirmed the resignation (Art. 14). The match page and the printed
    /// team sheets say it alike.
    pub fn ending_note(self, m: &RelayMatch) -> Option<String> {
        if let Some(end) = m.ending() {
            return Some(self.ending_text(end));
        }
        let (p, side) = (m.resigned_by()?, m.result()?.winner?.opponent());
        let name = m.side(side).team.name_of(p).unwrap_or_default().to_string();
        Some(self.tf("relay.resign_what", &[&self.side_name(side), &name]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::render_check::both;
    use rules::clock::ClockReading;
    use rules::rulings::{GameResult, ResultMethod, RulingError, Said};

    /// People as the tests' rosters would show them without names.
    fn id(p: PersonId) -> String {
        format!("#{p}")
    }

    /// The sentences of typed values the relay match tests (`domain::team::tests`) meet, as
    /// the match page and the record sheet word them.
    #[test]
    fn relay_values_read_in_both_languages() {
        let r =
            ClockReading { main_secs: 2400, periods: 3, period_secs: 0, period_moves: 0, overtime: false };
        let clocks = [r, ClockReading { main_secs: 2460, ..r }];
        let (en, zh) = both(|l| l.relay_effect(&Effect::ClocksRecorded { move_number: 40, clocks }, &id));
        assert!(en.contains("Clocks after move 40: Black 40:00, 3 byo-yomi left"), "{en}");
        assert!(zh.contains("第40手后计时：黑方基本时间40:00，读秒3次"), "{zh}");

        let end = [
            ClockReading { main_secs: 0, periods: 2, period_secs: 0, period_moves: 0, overtime: true },
            ClockReading { main_secs: 95, periods: 3, period_secs: 0, period_moves: 0, overtime: false },
        ];
        let started =
            Effect::PlayoffStarted { restored_to: 143, lineup_deadline: 0, clocks: end, clocks_after: 200 };
        let (en, _) = both(|l| l.relay_effect(&started, &id));
        assert!(en.contains("remaining time (Black byo-yomi, 2 left, White 1:35, 3 byo-yomi left"), "{en}");

        let missing = Refusal::PlayoffClocksMissing { rule: PlayoffClock::AtGameEnd, move_number: 200 };
        let (en, zh) = both(|l| l.relay_refusal(&missing, &id));
        assert!(en.contains("remaining time, byo-yomi included (Art. 12)"), "{en}");
        assert!(zh.contains("和棋终局时"), "{zh}");

        let later = WithdrawError::LaterEventFails {
            seq: 4,
            later: 7,
            refusal: Refusal::NoVacancy { side: Color::Black },
        };
        let (en, zh) = both(|l| l.withdraw_error(&later, &id));
        assert!(en.contains("Withdraw event 7 first"), "{en}");
        assert!(en.contains("Black has no red-carded player to replace"), "{en}");
        assert!(zh.contains("请先撤回第7条"), "{zh}");

        let card = Event::Card { person: 111, card: Card::Yellow, offence: None };
        assert_eq!(Lang::En.relay_event(&card, &id), "Yellow card to #111");
        let count = Event::Count { black_halves: 369, clocks: None };
        assert_eq!(Lang::Zh.relay_event(&count, &id), "数子：黑方184½子");

        let ruling = Refusal::ruling(&RulingError::Zero { index: 0 });
        let (en, zh) = both(|l| l.relay_refusal(&ruling, &id));
        assert_eq!(zh, "判罚无法执行：第1项：罚0子不是处罚");
        assert!(en.starts_with("The ruling cannot be applied: ruling #1"), "{en}");

        let result = GameResult {
            winner: Some(Color::White),
            method: ResultMethod::Count {
                outcome: rules::outcome::Outcome { winner: Some(Color::White), margin_q: 8 },
                black_halves: 392,
                penalty_black: 18,
                penalty_white: 4,
            },
        };
        let said = Said::Counted { black_halves: 392, penalties: Some([18, 4]), result };
        let (en, zh) = both(|l| l.relay_effect(&Effect::GameOver { result, said: said.clone() }, &id));
        assert!(en.contains("penalty stones Black 18, White 4"), "{en}");
        assert!(zh.contains("罚子：黑18子、白4子"), "{zh}");
    }

    /// Every reason a match cannot be set up is worded (none falls back to `Display`).
    #[test]
    fn setup_errors_read_in_both_languages() {
        use crate::domain::team::roster::RosterError;
        for e in [
            SetupError::Roster { side: Color::White, error: RosterError::EmptyName(7) },
            SetupError::SharedPerson(3),
            SetupError::SameTeam,
            SetupError::UnknownBarred(112),
        ] {
            both(|l| l.match_not_ready(&MatchError::Setup(e.clone())));
        }
        assert!(Lang::Zh
            .match_not_ready(&MatchError::Setup(SetupError::UnknownBarred(112)))
            .contains("112号"));
    }

    /// Sides and sections read as the catalog has them (the sentences above build on them).
    #[test]
    fn sides_and_sections_in_both_languages() {
        assert_eq!((side_en(Color::Black), side_zh(Color::White)), ("Black", "白方"));
        let (en, zh) = both(|l| l.section(Section::Two).into());
        assert_eq!((en.as_str(), zh.as_str()), ("section 2 (moves 73–143)", "第2节（第73至143手）"));
        assert_eq!(
            Lang::En.relay_refusal(&Refusal::SectionClosed { section: Section::Three }, &id),
            "section 3 (move 144 to the end) has started or is over: its line-up can no longer change"
        );
    }
}
