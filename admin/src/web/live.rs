//! Server push: `GET /live?t=3,4` (public, no login) is an event stream
//! (`text/event-stream`) that says `event: changed` / `data: {"t":3}` whenever one of those
//! tournaments' change tag moves (any audited write, `db::audit::touch`), with a comment line
//! (`: ping`) every [`PING`] so proxies keep it open. `assets/live.js` opens it on every page
//! whose `<body>` has `data-live`, and re-fetches the page (or lets the page's own script do it).
//!
//! One [`Hub`] per server: a topic per tournament someone listens to, made when the first
//! reader comes and dropped when the last one has gone. One task ([`start`]) re-reads the
//! watched tournaments' tags whenever something may have changed, as the public cache does
//! (`web::public`): a write of this process (`db::audit::writes`), a commit of any other
//! server on the database (SQLite's `data_version`; PostgreSQL's `NOTIFY` on
//! `db::audit::CHANGES_CHANNEL`, read by the cache's listening connection), and at least every
//! second when neither can be read. A tag that moved goes to every reader of the tournament.
//!
//! Each reader is a small queue ([`QUEUE`] events): the fan-out never waits for a reader, and
//! a reader that has not read its queue (a phone that went to sleep with the page open) is
//! dropped; its browser opens the stream again when it wakes (`retry:`).

use super::ctx::{lang_of, on_db};
use super::error::AppError;
use super::AppState;
use crate::db::audit;
use crate::db::tournaments as tdb;
use crate::db::DbError;
use crate::i18n::tr;
use actix_web::http::header;
use actix_web::web::Bytes;
use actix_web::{web, HttpRequest, HttpResponse};
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

/// At most this many tournaments on one stream (a screen of an event's groups, a phone's page).
pub const MAX_IDS: usize = 16;
/// A comment line this often keeps proxies (nginx's `proxy_read_timeout`, 60 s by default)
/// from closing a quiet stream.
pub const PING: Duration = Duration::from_secs(20);
/// How long a browser waits before it opens a closed stream again (the `retry:` field), in ms.
pub const RETRY_MS: u32 = 3000;
/// How often the hub looks whether anything may have changed (an atomic read and, on SQLite, a
/// pragma on a connection of its own; on PostgreSQL the notifications already received).
const TICK: Duration = Duration::from_millis(100);
/// Without a way to see other servers' commits, the watched tags are read again this often.
const BLIND_EVERY: Duration = Duration::from_secs(1);
/// Events a reader may leave unread before it is dropped.
const QUEUE: usize = 8;

/// The static script of the live pages (CSP `default-src 'self'`: no inline script).
pub const SCRIPT: &str = include_str!("../../../assets/live.js");

pub async fn script() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/javascript; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "public, max-age=3600"))
        .body(SCRIPT)
}

/// The readers of every tournament someone listens to.
#[derive(Default)]
pub struct Hub {
    topics: Mutex<HashMap<i32, Topic>>,
}

struct Topic {
    /// The change tag last seen ("" once the tournament is gone).
    tag: String,
    readers: Vec<mpsc::Sender<i32>>,
    /// Made since the tags were last read: read them again even if nothing was written.
    fresh: bool,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Hub {
    /// A reader of the tournaments `tags` (each with the tag read when the stream opened).
    pub fn subscribe(&self, tags: Vec<(i32, String)>) -> mpsc::Receiver<i32> {
        let (tx, rx) = mpsc::channel(QUEUE);
        let mut topics = lock(&self.topics);
        for (tid, tag) in tags {
            let topic = topics.entry(tid).or_insert_with(|| Topic { tag, readers: Vec::new(), fresh: true });
            topic.readers.push(tx.clone());
        }
        rx
    }

    /// The tournaments someone listens to (readers that have gone are let go first, and a
    /// topic without readers dropped), and whether one of them is new since the last call.
    fn watched(&self) -> (Vec<i32>, bool) {
        let mut topics = lock(&self.topics);
        topics.retain(|_, t| {
            t.readers.retain(|r| !r.is_closed());
            !t.readers.is_empty()
        });
        let mut fresh = false;
        for t in topics.values_mut() {
            fresh |= std::mem::take(&mut t.fresh);
        }
        (topics.keys().copied().collect(), fresh)
    }

    /// `tid`'s tag is `tag` now: if it moved, tell every reader; one whose queue is full (it has
    /// not read for a while) or that has gone is dropped. Returns how many readers were told.
    pub fn moved(&self, tid: i32, tag: &str) -> usize {
        let mut topics = lock(&self.topics);
        let Some(topic) = topics.get_mut(&tid) else { return 0 };
        if topic.tag == tag {
            return 0;
        }
        topic.tag = tag.to_string();
        topic.readers.retain(|r| r.try_send(tid).is_ok());
        topic.readers.len()
    }

    /// Readers now, all tournaments together (a reader of several counted once per topic).
    pub fn readers(&self) -> usize {
        lock(&self.topics).values().map(|t| t.readers.len()).sum()
    }
}

/// The hub's task: on every [`TICK`], if this process wrote, another server committed, a new
/// topic came, or (blind) a second went by, read the watched tags and tell the readers of
/// those that moved. Runs on the server's own runtime for as long as the server.
pub fn start(state: web::Data<AppState>) {
    actix_web::rt::spawn(async move {
        let mut tick = actix_web::rt::time::interval(TICK);
        let mut last: Option<(u64, Option<i64>)> = None;
        let mut read_at = Instant::now();
        loop {
            tick.tick().await;
            if lock(&state.live.topics).is_empty() {
                continue;
            }
            let seen = state.public.seen().await;
            let gen = (audit::writes(), seen);
            let (tids, fresh) = state.live.watched();
            let blind = seen.is_none() && read_at.elapsed() >= BLIND_EVERY;
            if last == Some(gen) && !fresh && !blind {
                continue;
            }
            last = Some(gen);
            read_at = Instant::now();
            let st = state.clone();
            let tags = on_db(move || -> Result<Vec<(i32, String)>, DbError> {
                let mut conn = st.pool.get()?;
                let mut tags = Vec::with_capacity(tids.len());
                for tid in tids {
                    match tdb::change_stamp(&mut conn, tid) {
                        Ok((_, tag)) => tags.push((tid, tag)),
                        Err(DbError::NotFound) => tags.push((tid, String::new())),
                        Err(e) => return Err(e),
                    }
                }
                Ok(tags)
            })
            .await;
            match tags.and_then(|t| t) {
                Ok(tags) => {
                    for (tid, tag) in tags {
                        state.live.moved(tid, &tag);
                    }
                }
                Err(e) => {
                    // Read again on the next tick.
                    last = None;
                    tracing::warn!("live: the tags could not be read: {e}");
                }
            }
        }
    });
}

/// The tournaments of `t=3,4`: 1 to [`MAX_IDS`] distinct positive ids, comma-separated.
fn parse_ids(q: &str) -> Option<Vec<i32>> {
    let t = serde_urlencoded::from_str::<Vec<(String, String)>>(q)
        .ok()?
        .into_iter()
        .filter(|(k, _)| k == "t")
        .map(|(_, v)| v)
        .collect::<Vec<_>>();
    let [t] = t.as_slice() else { return None };
    let mut ids = Vec::new();
    for part in t.split(',') {
        let id: i32 = part.trim().parse().ok().filter(|n| *n > 0)?;
        if !ids.contains(&id) {
            ids.push(id);
        }
    }
    (!ids.is_empty() && ids.len() <= MAX_IDS).then_some(ids)
}

/// One event of the stream.
fn changed(tid: i32) -> Bytes {
    Bytes::from(format!("event: changed\ndata: {{\"t\":{tid}}}\n\n"))
}

/// `GET /live?t=ID[,ID…]`: the event stream of those tournaments (400 for a malformed list,
/// 404 when one of them does not exist).
pub async fn stream(req: HttpRequest) -> Result<HttpResponse, AppError> {
    let lang = lang_of(&req);
    let Some(ids) = parse_ids(req.query_string()) else {
        return Err(AppError::bad_request(lang, tr!(lang, "live.bad_ids", max = MAX_IDS as i64)));
    };
    let state = req
        .app_data::<web::Data<AppState>>()
        .cloned()
        .ok_or_else(|| AppError::internal(lang, "no app state"))?;
    let st = state.clone();
    let tags = on_db(move || -> Result<Vec<(i32, String)>, DbError> {
        let mut conn = st.pool.get()?;
        ids.into_iter().map(|tid| tdb::change_stamp(&mut conn, tid).map(|(_, tag)| (tid, tag))).collect()
    })
    .await
    .and_then(|t| t)
    .map_err(|e| AppError::db(lang, e))?;
    let rx = state.live.subscribe(tags);
    let first = Bytes::from(format!("retry: {RETRY_MS}\n\n"));
    let body = futures_util::stream::unfold((rx, Some(first)), |(mut rx, first)| async move {
        if let Some(b) = first {
            return Some((Ok::<_, std::convert::Infallible>(b), (rx, None)));
        }
        match actix_web::rt::time::timeout(PING, rx.recv()).await {
            Ok(Some(tid)) => Some((Ok(changed(tid)), (rx, None))),
            // Dropped by the hub (it lagged) or the server stops: the browser comes back.
            Ok(None) => None,
            Err(_) => Some((Ok(Bytes::from_static(b": ping\n\n")), (rx, None))),
        }
    });
    Ok(HttpResponse::Ok()
        .content_type("text/event-stream")
        .insert_header((header::CACHE_CONTROL, "no-store"))
        // Not gzipped (the compressor would hold events back) and not buffered by nginx.
        .insert_header((header::CONTENT_ENCODING, "identity"))
        .insert_header(("X-Accel-Buffering", "no"))
        .streaming(body))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The stream's address names 1 to 16 tournaments by positive id; anything else is refused.
    #[test]
    fn ids_are_one_to_sixteen_positive_numbers() {
        assert_eq!(parse_ids("t=3"), Some(vec![3]));
        assert_eq!(parse_ids("t=3,4"), Some(vec![3, 4]));
        assert_eq!(parse_ids("t=3%2C4,3"), Some(vec![3, 4]));
        for bad in ["", "t=", "t=x", "t=0", "t=-1", "t=3,,4", "t=3&t=4", "x=3", "t=99999999999"] {
            assert_eq!(parse_ids(bad), None, "{bad}");
        }
        let many = (1..=17).map(|n| n.to_string()).collect::<Vec<_>>().join(",");
        assert_eq!(parse_ids(&format!("t={many}")), None);
        let most = (1..=16).map(|n| n.to_string()).collect::<Vec<_>>().join(",");
        assert_eq!(parse_ids(&format!("t={most}")).map(|v| v.len()), Some(16));
    }

    /// A moved tag reaches every reader once; a reader that does not read is dropped once its
    /// queue is full, and the others still hear of every change.
    #[actix_web::test]
    async fn a_change_reaches_readers_and_a_reader_that_lags_is_dropped() {
        let hub = Hub::default();
        let mut a = hub.subscribe(vec![(3, "t0".into())]);
        let sleeper = hub.subscribe(vec![(3, "t0".into()), (4, "u0".into())]);
        assert_eq!(hub.moved(3, "t0"), 0, "the same tag is no change");
        assert_eq!(hub.moved(3, "t1"), 2);
        assert_eq!(a.recv().await, Some(3));
        for n in 2..=(QUEUE + 1) {
            hub.moved(3, &format!("t{n}"));
            assert_eq!(a.recv().await, Some(3));
        }
        assert_eq!(hub.moved(3, "last"), 1, "the sleeper's queue was full: dropped");
        assert_eq!(a.recv().await, Some(3));
        drop(sleeper);
        drop(a);
        let (tids, _) = hub.watched();
        assert!(tids.is_empty(), "topics without readers are dropped: {tids:?}");
        assert_eq!(hub.readers(), 0);
    }
}
