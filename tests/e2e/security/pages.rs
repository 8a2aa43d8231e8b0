//! The pages as data: every GET route, with a path that shows it and how its body is checked.
//! The crawl of [`super`] visits each in both languages, as the staff and as the public; the
//! test `every_page_in_the_router_is_crawled` reads the router's source and fails until a new
//! page has its row here.

use super::{Kind, Page};

/// Every GET route. Add new pages here.
pub(super) const PAGES: &[Page] = &[
    Page { pattern: "/", path: |_| "/".into(), kind: Kind::Html },
    Page { pattern: "/assets/style.css", path: |_| "/assets/style.css".into(), kind: Kind::Css },
    Page {
        pattern: "/assets/clock/{file}",
        path: |_| "/assets/clock/clock.js".into(),
        kind: Kind::Asset("text/javascript"),
    },
    Page {
        pattern: "/assets/check_in.js",
        path: |_| "/assets/check_in.js".into(),
        kind: Kind::Asset("text/javascript"),
    },
    Page {
        pattern: "/assets/count.js",
        path: |_| "/assets/count.js".into(),
        kind: Kind::Asset("text/javascript"),
    },
    Page {
        pattern: "/assets/live.js",
        path: |_| "/assets/live.js".into(),
        kind: Kind::Asset("text/javascript"),
    },
    // The event stream never ends: crawled with a malformed list, its 400 page.
    Page { pattern: "/live", path: |_| "/live?t=0".into(), kind: Kind::Html },
    Page {
        pattern: "/assets/favicon.svg",
        path: |_| "/assets/favicon.svg".into(),
        kind: Kind::Asset("image/svg+xml"),
    },
    Page { pattern: "/favicon.ico", path: |_| "/favicon.ico".into(), kind: Kind::Asset("image/svg+xml") },
    Page {
        pattern: "/lang/{code}",
        path: |i| format!("/lang/zh?next=/t/{}/players", i.t),
        kind: Kind::Redirect,
    },
    Page { pattern: "/login", path: |_| "/login".into(), kind: Kind::Html },
    Page { pattern: "/setup/{token}", path: |_| format!("/setup/{}", "0".repeat(64)), kind: Kind::Html },
    Page { pattern: "/users", path: |_| "/users".into(), kind: Kind::Html },
    Page {
        pattern: "/users/{id}/password",
        path: |i| format!("/users/{}/password", i.user),
        kind: Kind::Html,
    },
    Page { pattern: "/account", path: |_| "/account".into(), kind: Kind::Html },
    Page { pattern: "/persons", path: |_| "/persons?q=a".into(), kind: Kind::Html },
    Page { pattern: "/persons/{person}", path: |_| "/persons/1".into(), kind: Kind::Html },
    Page {
        pattern: "/persons/{person}/export.json",
        path: |_| "/persons/1/export.json".into(),
        kind: Kind::Text("application/json"),
    },
    Page { pattern: "/p/{person}", path: |_| "/p/1".into(), kind: Kind::Html },
    Page { pattern: "/t/new", path: |_| "/t/new".into(), kind: Kind::Html },
    Page { pattern: "/t/{id}", path: |i| format!("/t/{}", i.t), kind: Kind::Html },
    Page { pattern: "/t/{id}/settings", path: |i| format!("/t/{}/settings", i.t), kind: Kind::Html },
    Page { pattern: "/e/{event}", path: |i| format!("/e/{}", i.ev), kind: Kind::Redirect },
    Page { pattern: "/e/{event}/bands", path: |i| format!("/e/{}/bands", i.ev), kind: Kind::Html },
    Page { pattern: "/t/{id}/audit", path: |i| format!("/t/{}/audit", i.t), kind: Kind::Html },
    Page { pattern: "/t/{id}/players", path: |i| format!("/t/{}/players", i.t), kind: Kind::Html },
    Page { pattern: "/t/{id}/entrants", path: |i| format!("/t/{}/entrants", i.t), kind: Kind::Html },
    Page { pattern: "/t/{id}/entrants.csv", path: |i| format!("/t/{}/entrants.csv", i.t), kind: Kind::Csv },
    Page { pattern: "/t/{id}/entrants/new", path: |i| format!("/t/{}/entrants/new", i.t), kind: Kind::Html },
    Page {
        pattern: "/t/{id}/entrants/{eid}/edit",
        path: |i| format!("/t/{}/entrants/{}/edit", i.t, i.e),
        kind: Kind::Html,
    },
    Page {
        pattern: "/t/{id}/entrants/{eid}/withdraw",
        path: |i| format!("/t/{}/entrants/{}/withdraw", i.t, i.e),
        kind: Kind::Html,
    },
    Page { pattern: "/t/{id}/check-in", path: |i| format!("/t/{}/check-in?round=3", i.t), kind: Kind::Desk },
    Page {
        pattern: "/t/{id}/check-in/self",
        path: |i| format!("/t/{}/check-in/self", i.t),
        kind: Kind::Html,
    },
    Page {
        pattern: "/t/{id}/check-in/{n}/close",
        path: |i| format!("/t/{}/check-in/3/close", i.t),
        kind: Kind::Html,
    },
    Page { pattern: "/t/{id}/import", path: |i| format!("/t/{}/import", i.t), kind: Kind::Html },
    Page { pattern: "/t/{id}/rating-lists", path: |i| format!("/t/{}/rating-lists", i.t), kind: Kind::Html },
    Page {
        pattern: "/t/{id}/rating-list/{list}",
        path: |i| format!("/t/{}/rating-list/{}", i.t, i.rl),
        kind: Kind::Html,
    },
    // ---- Online registration (网上报名): the public form and status page, the queue --------
    Page { pattern: "/e/{event}/register", path: |i| format!("/e/{}/register", i.event), kind: Kind::Html },
    Page {
        pattern: "/e/{event}/register/{reference}",
        path: |i| format!("/e/{}/register/{}", i.event, i.reference),
        kind: Kind::Html,
    },
    Page {
        pattern: "/e/{event}/registrations",
        path: |i| format!("/e/{}/registrations", i.event),
        kind: Kind::Html,
    },
    // ---- Display screens (大屏): the organizers' page, the screen and its data, its files ----
    Page { pattern: "/e/{event}/screens", path: |i| format!("/e/{}/screens", i.event), kind: Kind::Html },
    Page { pattern: "/screen/{token}", path: |i| i.screen_path.to_string(), kind: Kind::Screen },
    Page { pattern: "/screen/{token}/data", path: |i| format!("{}/data", i.screen_path), kind: Kind::Html },
    Page {
        pattern: "/assets/screen.js",
        path: |_| "/assets/screen.js".into(),
        kind: Kind::Asset("text/javascript"),
    },
    Page { pattern: "/assets/screen.css", path: |_| "/assets/screen.css".into(), kind: Kind::Css },
    // ---- Rounds and printing (staff), public pairings --------------------------------------
    Page { pattern: "/t/{id}/rounds", path: |i| format!("/t/{}/rounds", i.t), kind: Kind::Html },
    Page { pattern: "/t/{id}/rounds/{n}", path: |i| format!("/t/{}/rounds/1", i.t), kind: Kind::Html },
    Page {
        pattern: "/t/{id}/rounds/{n}/attendance",
        path: |i| format!("/t/{}/rounds/2/attendance", i.t),
        kind: Kind::Html,
    },
    Page {
        pattern: "/t/{id}/rounds/{n}/explain",
        path: |i| format!("/t/{}/rounds/2/explain?a={}&b=", i.t, i.e),
        kind: Kind::Html,
    },
    Page {
        pattern: "/t/{id}/rounds/{n}/scoresheets.pdf",
        path: |i| format!("/t/{}/rounds/1/scoresheets.pdf?per_page=2", i.t),
        kind: Kind::Pdf,
    },
    Page {
        pattern: "/t/{id}/rounds/{n}/pairings.pdf",
        path: |i| format!("/t/{}/rounds/1/pairings.pdf?order=name&lang=en", i.t),
        kind: Kind::Pdf,
    },
    Page {
        pattern: "/t/{id}/rounds/{n}/record-sheets.pdf",
        path: |i| format!("/t/{}/rounds/1/record-sheets.pdf", i.t),
        kind: Kind::Pdf,
    },
    Page {
        pattern: "/t/{id}/rounds/{n}/pairings.csv",
        path: |i| format!("/t/{}/rounds/1/pairings.csv", i.t),
        kind: Kind::Csv,
    },
    Page {
        pattern: "/t/{id}/rounds/{n}/table-cards.pdf",
        path: |i| format!("/t/{}/rounds/1/table-cards.pdf?format=a6", i.t),
        kind: Kind::Pdf,
    },
    // The hall's lists of the event `t` is the one group of (its event was made with it).
    Page {
        pattern: "/e/{event}/rounds/{n}/pairings.pdf",
        path: |i| format!("/e/{}/rounds/1/pairings.pdf", i.t),
        kind: Kind::Pdf,
    },
    Page {
        pattern: "/e/{event}/rounds/{n}/table-cards.pdf",
        path: |i| format!("/e/{}/rounds/1/table-cards.pdf?format=tent", i.t),
        kind: Kind::Pdf,
    },
    Page { pattern: "/e/{event}/poster.pdf", path: |i| format!("/e/{}/poster.pdf", i.ev), kind: Kind::Pdf },
    Page { pattern: "/t/{id}/pairings", path: |i| format!("/t/{}/pairings", i.t), kind: Kind::Html },
    Page { pattern: "/t/{id}/pairings/{n}", path: |i| format!("/t/{}/pairings/1", i.t), kind: Kind::Html },
    Page {
        pattern: "/t/{id}/pairings/{n}/pairings.pdf",
        path: |i| format!("/t/{}/pairings/1/pairings.pdf", i.t),
        kind: Kind::Pdf,
    },
    Page {
        pattern: "/t/{id}/pairings/{n}/pairings.csv",
        path: |i| format!("/t/{}/pairings/1/pairings.csv", i.t),
        kind: Kind::Csv,
    },
    Page {
        pattern: "/t/{id}/pairings/{n}/results-notice.pdf",
        path: |i| format!("/t/{}/pairings/1/results-notice.pdf", i.t),
        kind: Kind::Pdf,
    },
    Page {
        pattern: "/t/{id}/export/opengotha.xml",
        path: |i| format!("/t/{}/export/opengotha.xml", i.t),
        kind: Kind::Xml,
    },
    // ---- Results (staff) and the public results pages ---------------------------------------
    Page {
        pattern: "/t/{id}/results/rounds",
        path: |i| format!("/t/{}/results/rounds", i.t),
        kind: Kind::Html,
    },
    Page {
        pattern: "/t/{id}/results/rounds/{n}",
        path: |i| format!("/t/{}/results/rounds/1", i.t),
        kind: Kind::Html,
    },
    Page {
        pattern: "/t/{id}/results/rounds/{n}/lateness",
        path: |i| format!("/t/{}/results/rounds/1/lateness", i.t),
        kind: Kind::Html,
    },
    Page { pattern: "/t/{id}/games/{gid}", path: |i| format!("/t/{}/games/{}", i.t, i.gr), kind: Kind::Html },
    Page {
        pattern: "/t/{id}/games/{gid}/record.sgf",
        path: |i| format!("/t/{}/games/{}/record.sgf", i.t, i.gx),
        kind: Kind::Sgf,
    },
    Page {
        pattern: "/t/{id}/games/{gid}/count",
        path: |i| format!("/t/{}/games/{}/count", i.t, i.gx),
        kind: Kind::Count,
    },
    Page {
        pattern: "/t/{id}/games/{gid}/clock",
        path: |i| format!("/t/{}/games/{}/clock", i.t, i.gr),
        kind: Kind::Clock,
    },
    // The board pages (web::board): the board drawn as SVG, the recorder's script.
    Page {
        pattern: "/assets/board.js",
        path: |_| "/assets/board.js".into(),
        kind: Kind::Asset("text/javascript"),
    },
    Page { pattern: "/assets/board.css", path: |_| "/assets/board.css".into(), kind: Kind::Css },
    Page {
        pattern: "/t/{id}/games/{gid}/board",
        path: |i| format!("/t/{}/games/{}/board", i.t, i.gr),
        kind: Kind::Board,
    },
    Page {
        pattern: "/t/{id}/games/{gid}/live",
        path: |i| format!("/t/{}/games/{}/live", i.t, i.gr),
        kind: Kind::Board,
    },
    Page {
        pattern: "/t/{id}/games/{gid}/board.sgf",
        path: |i| format!("/t/{}/games/{}/board.sgf", i.t, i.gr),
        kind: Kind::Sgf,
    },
    Page { pattern: "/t/{id}/results", path: |i| format!("/t/{}/results", i.t), kind: Kind::Html },
    Page { pattern: "/t/{id}/standings", path: |i| format!("/t/{}/standings", i.t), kind: Kind::Html },
    Page {
        pattern: "/t/{id}/standings.pdf",
        path: |i| format!("/t/{}/standings.pdf?paper=a3", i.t),
        kind: Kind::Pdf,
    },
    Page {
        pattern: "/t/{id}/crosstable.pdf",
        path: |i| format!("/t/{}/crosstable.pdf", i.t),
        kind: Kind::Pdf,
    },
    Page { pattern: "/t/{id}/standings.csv", path: |i| format!("/t/{}/standings.csv", i.t), kind: Kind::Csv },
    Page { pattern: "/t/{id}/results.csv", path: |i| format!("/t/{}/results.csv", i.t), kind: Kind::Csv },
    Page {
        pattern: "/t/{id}/export/egf.h9",
        path: |i| format!("/t/{}/export/egf.h9", i.t),
        kind: Kind::Text("text/plain"),
    },
    Page { pattern: "/t/{id}/crosstable", path: |i| format!("/t/{}/crosstable", i.t), kind: Kind::Html },
    Page {
        pattern: "/t/{id}/players/{eid}",
        path: |i| format!("/t/{}/players/{}", i.t, i.e),
        kind: Kind::Html,
    },
    // ---- Pairings that must not happen (staff) ------------------------------------------------
    Page { pattern: "/t/{id}/forbidden", path: |i| format!("/t/{}/forbidden", i.t), kind: Kind::Html },
    Page {
        pattern: "/t/{id}/forbidden/{fid}",
        path: |i| format!("/t/{}/forbidden/{}", i.t, i.forbidden),
        kind: Kind::Html,
    },
    // ---- Prizes and certificates (staff; the list public once published) ----------------------
    Page { pattern: "/t/{id}/prizes", path: |i| format!("/t/{}/prizes", i.t), kind: Kind::Html },
    Page {
        pattern: "/t/{id}/prizes/list.pdf",
        path: |i| format!("/t/{}/prizes/list.pdf", i.t),
        kind: Kind::Pdf,
    },
    Page {
        pattern: "/t/{id}/prizes/certificates.pdf",
        path: |i| format!("/t/{}/prizes/certificates.pdf", i.t),
        kind: Kind::Pdf,
    },
    Page {
        pattern: "/t/{id}/prizes/{n}/certificate.pdf",
        path: |i| format!("/t/{}/prizes/1/certificate.pdf", i.t),
        kind: Kind::Pdf,
    },
    Page { pattern: "/t/{id}/winners", path: |i| format!("/t/{}/winners", i.t), kind: Kind::Html },
    Page { pattern: "/t/{id}/winners.pdf", path: |i| format!("/t/{}/winners.pdf", i.t), kind: Kind::Pdf },
    // ---- Team events --------------------------------------------------------------------------
    Page { pattern: "/t/{id}/teams", path: |i| format!("/t/{}/teams", i.tb), kind: Kind::Html },
    Page { pattern: "/t/{id}/teams/new", path: |i| format!("/t/{}/teams/new", i.tb), kind: Kind::Html },
    Page {
        pattern: "/t/{id}/teams/{team}",
        path: |i| format!("/t/{}/teams/{}", i.tb, i.team),
        kind: Kind::Html,
    },
    // A relay event's team: its research room's section (seed 003 Art. 10.1).
    Page {
        pattern: "/t/{id}/teams/{team}",
        path: |i| format!("/t/{}/teams/{}", i.tr, i.rteam),
        kind: Kind::Html,
    },
    // The research room (no login): its board drawn by the server, the live updates' script.
    Page { pattern: "/room/{token}", path: |i| i.room_path.to_string(), kind: Kind::Board },
    Page { pattern: "/t/{id}/team-rounds", path: |i| format!("/t/{}/team-rounds", i.tb), kind: Kind::Html },
    Page {
        pattern: "/t/{id}/team-standings",
        path: |i| format!("/t/{}/team-standings", i.tb),
        kind: Kind::Html,
    },
    Page {
        pattern: "/t/{id}/matches/{mid}",
        path: |i| format!("/t/{}/matches/{}", i.tr, i.m),
        kind: Kind::Html,
    },
    // The same route serves board matches (players chosen per board).
    Page {
        pattern: "/t/{id}/matches/{mid}",
        path: |i| format!("/t/{}/matches/{}", i.tb, i.bm),
        kind: Kind::Html,
    },
    Page {
        pattern: "/t/{id}/matches/{mid}/sheets.pdf",
        path: |i| format!("/t/{}/matches/{}/sheets.pdf", i.tr, i.m),
        kind: Kind::Pdf,
    },
    Page {
        pattern: "/t/{id}/matches/{mid}/clock",
        path: |i| format!("/t/{}/matches/{}/clock", i.tr, i.m),
        kind: Kind::Clock,
    },
    // The count from a relay game's position: the started match (its empty board so far).
    Page {
        pattern: "/t/{id}/matches/{mid}/count",
        path: |i| format!("/t/{}/matches/{}/count", i.tn, i.nm),
        kind: Kind::Count,
    },
    // The relay board (web::relay_board): the recorder's board, the public board, the record.
    Page {
        pattern: "/t/{id}/matches/{mid}/board",
        path: |i| format!("/t/{}/matches/{}/board", i.tr, i.m),
        kind: Kind::Board,
    },
    Page {
        pattern: "/t/{id}/matches/{mid}/live",
        path: |i| format!("/t/{}/matches/{}/live", i.tr, i.m),
        kind: Kind::Board,
    },
    Page {
        pattern: "/t/{id}/matches/{mid}/board.sgf",
        path: |i| format!("/t/{}/matches/{}/board.sgf", i.tr, i.m),
        kind: Kind::Sgf,
    },
];
