//! Writing a [`Record`] back as FF\[4\] text: [`write`](write()) puts KM in points and passes as `B[]`;
//! reading the text back gives the same game.

use super::{Action, Record, Setup};
use crate::board::{Color, Point};
use crate::game::Move;

fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        if ch == ']' || ch == '\\' {
            out.push('\\');
        }
        out.push(ch);
    }
    out
}

fn push_points(out: &mut String, ident: &str, pts: &[Point]) {
    if pts.is_empty() {
        return;
    }
    out.push_str(ident);
    for p in pts {
        out.push('[');
        out.push_str(&p.sgf());
        out.push(']');
    }
}

fn push_setup(out: &mut String, setup: &Setup, to_move: Option<Color>) {
    push_points(out, "AB", &setup.black);
    push_points(out, "AW", &setup.white);
    push_points(out, "AE", &setup.empty);
    if let Some(c) = to_move {
        out.push_str(&format!("PL[{}]", c.letter()));
    }
}

/// Write a record as FF\[4\] text: GM/FF/CA/AP/SZ, KM in points, HA, RU, the players, DT/EV/RO/PC,
/// RE, the root's setup and PL, then one node per step (passes as `B[]`), and TB/TW in the last
/// node. Reading the text back gives the same game.
pub fn write(rec: &Record) -> String {
    let mut out = String::with_capacity(64 + 7 * rec.steps.len());
    out.push_str(&format!("(;GM[1]FF[4]CA[UTF-8]AP[Tengen:{}]SZ[{}]", env!("CARGO_PKG_VERSION"), rec.size));
    if let Some(k) = rec.komi {
        out.push_str(&format!("KM[{}]", k.points_text()));
    }
    if rec.handicap > 0 {
        out.push_str(&format!("HA[{}]", rec.handicap));
    }
    let i = &rec.info;
    for (ident, v) in [
        ("RU", &i.rules),
        ("GN", &i.name),
        ("PB", &i.black),
        ("BR", &i.black_rank),
        ("PW", &i.white),
        ("WR", &i.white_rank),
        ("DT", &i.date),
        ("EV", &i.event),
        ("RO", &i.round),
        ("PC", &i.place),
    ] {
        if let Some(v) = v {
            out.push_str(&format!("{ident}[{}]", escape(v)));
        }
    }
    match (&rec.result, &rec.result_text) {
        (Some(r), _) => out.push_str(&format!("RE[{r}]")),
        (None, Some(t)) => out.push_str(&format!("RE[{}]", escape(t))),
        (None, None) => {}
    }
    push_setup(&mut out, &rec.setup, rec.to_move);
    out.push('\n');
    for (k, step) in rec.steps.iter().enumerate() {
        out.push(';');
        match &step.action {
            Action::Setup { setup, to_move } => push_setup(&mut out, setup, *to_move),
            Action::Move { color, mv } => {
                out.push(color.letter());
                out.push('[');
                if let Move::Play(p) = mv {
                    out.push_str(&p.sgf());
                }
                out.push(']');
            }
        }
        if k % 12 == 11 {
            out.push('\n');
        }
    }
    if let Some(t) = &rec.territory {
        // TB/TW go into the last node (the root's, for a record without steps).
        push_points(&mut out, "TB", &t.black);
        push_points(&mut out, "TW", &t.white);
    }
    out.push_str(")\n");
    out
}

#[cfg(test)]
mod tests {
    use super::super::tests::{p, SHORT};
    use super::super::{parse, GameResult, Komi, KomiUnit, Step, Territory, WinBy};
    use super::*;

    #[test]
    fn off_board_moves_are_written_back_as_read() {
        // Found by the sgf fuzz target: `lS` (y = 44) was written as 'l' and byte 0x8d.
        let rec = parse("(;SZ[19];B[pd];W[lS];B[Za])").unwrap();
        let again = parse(&write(&rec)).unwrap();
        assert_eq!(again.moves().collect::<Vec<_>>(), rec.moves().collect::<Vec<_>>());
        assert!(write(&rec).contains("W[lS]"), "{}", write(&rec));
    }

    #[test]
    fn write_then_read_round_trip() {
        let mut rec = Record::new(19);
        rec.komi = Some(Komi { quarters: 15, unit: KomiUnit::Points });
        rec.handicap = 2;
        rec.setup.black = vec![p("pd"), p("dp")];
        rec.info.black = Some("柯洁 [9p]".into());
        rec.info.white = Some("Back\\slash".into());
        rec.info.black_rank = Some("9p".into());
        rec.info.date = Some("2024-05-12".into());
        rec.info.event = Some("Tengen Cup".into());
        rec.info.rules = Some("Chinese".into());
        rec.result = Some(GameResult::Win { winner: Color::White, by: WinBy::Score { margin_halves: 5 } });
        rec.result_text = Some("W+2.5".into());
        for (c, m) in [
            (Color::White, Move::Play(p("dd"))),
            (Color::Black, Move::Play(p("pp"))),
            (Color::White, Move::Pass),
            (Color::Black, Move::Play(p("qq"))),
        ] {
            rec.push_move(c, m);
        }
        rec.steps.push(Step {
            action: Action::Setup {
                setup: Box::new(Setup { empty: vec![p("qq")], ..Setup::default() }),
                to_move: Some(Color::White),
            },
            at: None,
        });
        for k in 0..30u8 {
            rec.push_move(
                if k % 2 == 0 { Color::White } else { Color::Black },
                Move::Play(Point::new(k % 19, 10 + k / 19)),
            );
        }
        rec.territory = Some(Territory { black: vec![p("ss")], white: vec![p("aa"), p("ba")] });
        let text = write(&rec);
        assert!(text.starts_with("(;GM[1]FF[4]CA[UTF-8]AP[Tengen:"));
        assert!(text.contains("KM[7.5]HA[2]"));
        let back = parse(&text).unwrap();
        let strip = |r: &Record| {
            let mut r = r.clone();
            r.warnings.clear();
            r.info.application = None;
            for s in &mut r.steps {
                s.at = None;
            }
            r
        };
        assert_eq!(strip(&back), strip(&rec), "{text}");
        // and the written text is stable
        assert_eq!(write(&back), text);
        // a read record written and read again
        let short = parse(SHORT).unwrap();
        assert_eq!(strip(&parse(&write(&short)).unwrap()), strip(&short));
    }
}
