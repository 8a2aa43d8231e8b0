//! The public pages (no login, phone-first): pairings with "find my table", results,
//! standings, the crosstable, and a page per player.
//!
//! Hundreds of phones refresh these pages during a round, so for readers without a session:
//! - every page carries a weak ETag made of the tournament's change tag (a random value drawn
//!   by every audited write, `db::audit`), the language and this server's start, with a short
//!   `Cache-Control: public, max-age=0, must-revalidate`: a browser or proxy keeps the page but
//!   asks every time, and `If-None-Match` gets a 304 without touching the database;
//! - rendered pages are kept in memory per (address, language) and reused while the tag is the
//!   same, so a change is rendered once, not once per phone;
//! - the tag itself is read from the database again only after a commit: one made by this
//!   process ([`crate::db::audit::writes`]) or by any other connection to the file, another
//!   `tengen serve` on the same database included (SQLite's `PRAGMA data_version`, or on
//!   PostgreSQL the notifications every audited write sends at commit, heard on a connection
//!   of the cache's own, [`Watch`]; while that connection is lost, the text of
//!   `pg_current_snapshot()`, which any commit of a writing transaction changes), so a reader on server B
//!   sees a result saved on server A at once (several servers behind one proxy); without that connection
//!   (tests, benches, a watch that failed) at most once a second;
//! - PostgreSQL's version is read by a thread of the watch's own, so no request holds a lock
//!   while the database server is asked; a request waits for a read at most `WATCH_WAIT`,
//!   and when the server does not answer in time (it hangs, or is down) the reader gets the
//!   last copy of the page kept here, whatever its state, rather than an error or a wait;
//! - one snapshot build or render runs at a time; while it runs, other readers get the page of
//!   the previous state if it is at most [`STALE_MAX`] old instead of queueing behind it, so a
//!   burst of result writes cannot stall every reader (`tengen-lab bench load`, BENCHMARKS.md).
//!
//! Readers with a session (staff) get the same pages rendered for them, never cached.
//! Every page updates itself when its tournament changes (`web::live`, `assets/live.js`); while
//! a round runs (a published round with games still without a result) a browser without
//! script refreshes it with `<meta http-equiv="refresh">` in `<noscript>`.

use super::ctx::{id, lang_of, Ctx, SESSION_COOKIE};
use super::error::AppError;
use super::i18n::Lang;
use super::views::pages::Chrome;
use super::views::public::*;
use super::views::text::{display_name, is_team_event, rank_text};
use super::AppState;
use crate::db::entrants::EntrantRow;
use crate::db::event_pages::GroupTitle;
use crate::db::results::{self as rdb, GameLine, RulingRow};
use crate::db::tournaments::{self as tdb, TournamentRow};
use crate::db::{audit, DbError, DbPool};
use crate::domain::event_time::EventZone;
use crate::domain::pairing::Colour;
use crate::domain::settings::TieBreak;
use crate::domain::standings::{self as ds, Outcome};
use crate::i18n::tr;
use crate::office::print_data::line_result;
use actix_web::http::header;
use actix_web::web::Bytes;
use actix_web::{web, FromRequest, HttpRequest, HttpResponse};
use askama::Template;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Seconds between automatic refreshes while a round runs, for browsers without script.
pub const REFRESH_SECS: u32 = 60;
/// `Cache-Control` of the public pages for readers without a session: kept, but revalidated
/// by ETag on every view. It was `max-age=10`, and a player who had opened the pairings before
/// a round was published saw the old round for up to 10 s when coming back (the browser test
/// caught it on a quiet machine); a 304 costs the server less than a page.
pub const CACHE_CONTROL: &str = "public, max-age=0, must-revalidate";
/// How long a tournament's change tag read from the database is trusted without a local write.
const STAMP_TTL: Duration = Duration::from_secs(1);
/// How old a page of an earlier state may be and still be served while another reader renders
/// the current one. Without it, a burst of result writes makes every reader of every page queue
/// for one render each (the collapse `tengen-lab bench load` showed above a few results a second);
/// with it, readers get the page of a second ago and renders run back to back, never piled up.
const STALE_MAX: Duration = Duration::from_secs(2);
/// How long a reader waits for the database's version to be read (a read takes a millisecond;
/// one that takes longer means the server does not answer, and the reader gets the last copy).
#[cfg(feature = "postgres")]
const WATCH_WAIT: Duration = Duration::from_millis(500);
/// Pages kept in memory (all tournaments, languages and addresses together; a player's page
/// is about 10 KB, the standings of 1,000 players 180 KB plus 21 KB gzipped).
const MAX_PAGES: usize = 2048;

struct Cached {
    tag: String,
    etag: String,
    /// The ETag as a header value, made once (not on every response).
    etag_header: header::HeaderValue,
    /// When this page was rendered: a page of the previous state is served while the new one
    /// is being rendered only if it is younger than [`STALE_MAX`].
    at: Instant,
    body: Bytes,
    /// The same page gzipped, for the (nearly all) browsers that accept it.
    gzip: Option<Bytes>,
}

/// Pages above this size are also kept gzipped.
const GZIP_MIN_BYTES: usize = 1024;
/// Pages above this size are gzipped at the fast level.
const FAST_GZIP_BYTES: usize = 256 * 1024;

fn gzip(body: &[u8]) -> Option<Bytes> {
    use std::io::Write;
    if body.len() < GZIP_MIN_BYTES {
        return None;
    }
    // The big pages of a big event (standings, crosstable: megabytes at 10,000 players) with
    // the fast level: a few percent larger, several times quicker to make on the first request.
    let level = if body.len() > FAST_GZIP_BYTES {
        flate2::Compression::fast()
    } else {
        flate2::Compression::default()
    };
    let mut e = flate2::write::GzEncoder::new(Vec::with_capacity(body.len() / 6), level);
    e.write_all(body).ok()?;
    e.finish().ok().map(Bytes::from)
}

/// Whether the request's Accept-Encoding takes gzip (and does not refuse it with q=0).
fn accepts_gzip(req: &HttpRequest) -> bool {
    req.headers().get(header::ACCEPT_ENCODING).and_then(|v| v.to_str().ok()).is_some_and(|v| {
        v.split(',').any(|part| {
            let mut it = part.split(';');
            let coding = it.next().unwrap_or("").trim();
            let refused = it.any(|p| matches!(p.trim(), "q=0" | "q=0.0" | "q=0.00" | "q=0.000"));
            (coding.eq_ignore_ascii_case("gzip") || coding == "*") && !refused
        })
    })
}

/// The cache of rendered public pages and of the tournaments' change tags.
pub struct PublicCache {
    boot: String,
    stamps: Mutex<HashMap<i32, (String, Generation, Instant)>>,
    /// A connection of the cache's own that tells when any other connection committed (None:
    /// trust a stamp for `STAMP_TTL`).
    watch: Option<Watch>,
    pages: Mutex<HashMap<(String, Lang), Arc<Cached>>>,
    /// What the pages of each tournament show, read and computed once per change tag.
    snapshots: Mutex<HashMap<i32, Arc<Snapshot>>>,
    /// One render at a time per server: after a change, the first request renders and the
    /// others wait for it and reuse the page.
    render: Mutex<()>,
    /// The same for the pages read on their own (`Kind::direct`): they need no snapshot, so
    /// they do not wait for its build (the round page of 10,000 players queued behind it).
    render_direct: Mutex<()>,
}

impl Default for PublicCache {
    fn default() -> Self {
        PublicCache {
            boot: crate::db::users::random_token()[..8].to_string(),
            stamps: Mutex::new(HashMap::new()),
            watch: None,
            pages: Mutex::new(HashMap::new()),
            snapshots: Mutex::new(HashMap::new()),
            render: Mutex::new(()),
            render_direct: Mutex::new(()),
        }
    }
}

/// The cache's own connection, and what it reads as the database's version: SQLite's
/// `data_version` (read-only connection), or a hash of PostgreSQL's current snapshot (its
/// `xmin:xmax:in-progress` list moves on with every commit of a writing transaction, of this
/// database or another of the cluster, which only costs a re-read of the tag), read by a
/// thread of its own ([`PgWatch`]).
enum Watch {
    Sqlite(Mutex<rusqlite::Connection>),
    #[cfg(feature = "postgres")]
    Postgres(PgWatch),
}

impl Watch {
    fn open(path: &std::path::Path) -> Result<Watch, String> {
        match crate::db::Target::of(path) {
            crate::db::Target::Sqlite(p) => {
                use rusqlite::OpenFlags;
                rusqlite::Connection::open_with_flags(p, OpenFlags::SQLITE_OPEN_READ_ONLY)
                    .map(|c| Watch::Sqlite(Mutex::new(c)))
                    .map_err(|e| e.to_string())
            }
            #[cfg(feature = "postgres")]
            crate::db::Target::Postgres(url) => PgWatch::start(url).map(Watch::Postgres),
            #[cfg(not(feature = "postgres"))]
            crate::db::Target::Postgres(_) => Err(crate::db::backend::NO_POSTGRES.into()),
        }
    }

    /// The version now; None when it cannot be read (in time). SQLite's is read here (a local
    /// file); PostgreSQL's by its thread.
    async fn version(&self) -> Option<i64> {
        match self {
            // Read on every request for a kept page: prepared once, not parsed each time.
            Watch::Sqlite(c) => lock(c)
                .prepare_cached("PRAGMA data_version")
                .and_then(|mut q| q.query_row([], |r| r.get::<_, i64>(0)))
                .ok(),
            #[cfg(feature = "postgres")]
            Watch::Postgres(w) => w.version().await,
        }
    }
}

/// PostgreSQL's version, read on its own connection by a thread of its own: a reader asks
/// for a read and waits for one begun after it asked, at most [`WATCH_WAIT`]; many readers
/// share one read. A read that hangs holds up that thread only.
///
/// The connection listens on `db::audit::CHANGES_CHANNEL`, where every audited write of any
/// server names its tournament at commit: while it listens, a read is the count of
/// notifications received so far (no round trip to the database server; the thread drains
/// what has arrived every [`LISTEN_POLL`] and whenever asked), so a tag is read again only
/// when some server committed a change. When the connection is lost, the thread opens another
/// and listens again (counting one change, for what it may have missed); until it listens, a
/// read is a hash of the current snapshot, as before there was a listener.
#[cfg(feature = "postgres")]
struct PgWatch {
    /// Asks the thread for a read (full: one is asked for already).
    ask: std::sync::mpsc::SyncSender<()>,
    seen: tokio::sync::watch::Receiver<PgSeen>,
}

/// How often the listening thread takes in the notifications that arrived when nobody asks.
#[cfg(feature = "postgres")]
const LISTEN_POLL: Duration = Duration::from_millis(20);

/// What the watch's thread has read: when its last read began and what it read, and since
/// when the read now out has been waiting.
#[cfg(feature = "postgres")]
#[derive(Debug, Clone, Copy, Default)]
struct PgSeen {
    read: Option<(Instant, Option<i64>)>,
    out_since: Option<Instant>,
}

/// The listening connection and what it has heard.
#[cfg(feature = "postgres")]
struct PgListener {
    url: String,
    conn: Option<diesel::PgConnection>,
    /// The connection listens (LISTEN ran on it and it has not failed since).
    listening: bool,
    /// Notifications received (and connections lost), all connections together.
    heard: i64,
    /// When a connection was last tried, so a database that is down is not hammered.
    tried: Option<Instant>,
}

#[cfg(feature = "postgres")]
impl PgListener {
    /// Listen if not listening yet (at most one try a second), then take in what arrived.
    /// The version now: the count heard while listening, else the snapshot's hash.
    fn read(&mut self) -> Option<i64> {
        use diesel::{Connection, RunQueryDsl};
        if !self.listening && self.tried.is_none_or(|t| t.elapsed() >= Duration::from_secs(1)) {
            self.tried = Some(Instant::now());
            if self.conn.is_none() {
                self.conn = diesel::PgConnection::establish(&crate::db::backend::bounded(&self.url)).ok();
            }
            if let Some(c) = self.conn.as_mut() {
                let listen = format!("LISTEN {}", crate::db::audit::CHANGES_CHANNEL);
                self.listening = diesel::sql_query(listen).execute(c).is_ok();
                // What was committed while nobody listened is re-read once.
                self.heard += 1;
            }
        }
        if self.listening {
            let c = self.conn.as_mut()?;
            let mut lost = false;
            for n in c.notifications_iter() {
                match n {
                    Ok(_) => self.heard += 1,
                    Err(_) => {
                        lost = true;
                        break;
                    }
                }
            }
            if !lost {
                // Apart from the snapshot hashes, which are any i64: the high bit set.
                return Some(self.heard | i64::MIN);
            }
            self.listening = false;
            self.conn = None;
            self.heard += 1;
        }
        pg_snapshot(&self.url, &mut self.conn)
    }
}

#[cfg(feature = "postgres")]
impl PgWatch {
    fn start(url: String) -> Result<PgWatch, String> {
        use diesel::Connection;
        use std::sync::mpsc::RecvTimeoutError;
        let conn =
            diesel::PgConnection::establish(&crate::db::backend::bounded(&url)).map_err(|e| e.to_string())?;
        let (ask, asked) = std::sync::mpsc::sync_channel::<()>(1);
        let (tx, seen) = tokio::sync::watch::channel(PgSeen::default());
        let mut listener = PgListener { url, conn: Some(conn), listening: false, heard: 0, tried: None };
        std::thread::Builder::new()
            .name("public-watch".into())
            .spawn(move || loop {
                let wanted = match asked.recv_timeout(LISTEN_POLL) {
                    Ok(()) => true,
                    Err(RecvTimeoutError::Timeout) => false,
                    Err(RecvTimeoutError::Disconnected) => break,
                };
                if !wanted && !listener.listening {
                    // Nobody asked, and a snapshot read is a round trip: only when asked.
                    if listener.tried.is_some_and(|t| t.elapsed() < Duration::from_secs(1)) {
                        continue;
                    }
                }
                let began = Instant::now();
                tx.send_modify(|s| s.out_since = Some(began));
                let v = listener.read();
                tx.send_modify(|s| *s = PgSeen { read: Some((began, v)), out_since: None });
            })
            .map_err(|e| e.to_string())?;
        Ok(PgWatch { ask, seen })
    }

    async fn version(&self) -> Option<i64> {
        let asked = Instant::now();
        if self.seen.borrow().out_since.is_some_and(|t| t.elapsed() > WATCH_WAIT) {
            return None; // the server has not answered the read that is out
        }
        let _ = self.ask.try_send(());
        let mut seen = self.seen.clone();
        let read = actix_web::rt::time::timeout(
            WATCH_WAIT,
            seen.wait_for(|s| s.read.is_some_and(|(began, _)| began >= asked)),
        )
        .await;
        match read {
            Ok(Ok(s)) => s.read.and_then(|(_, v)| v),
            _ => None,
        }
    }
}

/// A hash of PostgreSQL's current snapshot; a connection lost (the server restarted) is opened
/// again on the next read.
#[cfg(feature = "postgres")]
fn pg_snapshot(url: &str, conn: &mut Option<diesel::PgConnection>) -> Option<i64> {
    use diesel::{Connection, QueryableByName, RunQueryDsl};
    #[derive(QueryableByName)]
    struct Snap {
        #[diesel(sql_type = diesel::sql_types::Text)]
        s: String,
    }
    if conn.is_none() {
        *conn = diesel::PgConnection::establish(&crate::db::backend::bounded(url)).ok();
    }
    let c = conn.as_mut()?;
    match diesel::sql_query("SELECT pg_current_snapshot()::text AS s").get_result::<Snap>(c) {
        Ok(snap) => {
            use std::hash::{Hash, Hasher};
            let mut h = std::collections::hash_map::DefaultHasher::new();
            snap.s.hash(&mut h);
            Some(h.finish() as i64 & i64::MAX)
        }
        Err(_) => {
            *conn = None;
            None
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// What a stamp was read after: this process's write count and the database's data version.
type Generation = (u64, Option<i64>);

impl PublicCache {
    /// A cache that notices commits of other processes on the database at `path` at once.
    pub fn watching(path: &std::path::Path) -> PublicCache {
        match Watch::open(path) {
            Ok(w) => PublicCache { watch: Some(w), ..PublicCache::default() },
            Err(e) => {
                tracing::warn!("public cache: no watch connection ({e}); tags trusted for {STAMP_TTL:?}");
                PublicCache::default()
            }
        }
    }

    /// The database's version now (None: no watch, or it could not be read in time).
    pub(super) async fn seen(&self) -> Option<i64> {
        match &self.watch {
            Some(w) => w.version().await,
            None => None,
        }
    }

    /// What a stamp read now is read after, the database's version being `seen`.
    fn generation(&self, seen: Option<i64>) -> Generation {
        (audit::writes(), seen)
    }

    fn stamp_cached(&self, tid: i32, seen: Option<i64>) -> Option<String> {
        let gen = self.generation(seen);
        let s = lock(&self.stamps);
        // With a data version, a stamp holds until the next commit; without, for STAMP_TTL.
        let fresh = |g: &Generation, at: &Instant| *g == gen && (gen.1.is_some() || at.elapsed() < STAMP_TTL);
        s.get(&tid).filter(|(_, g, at)| fresh(g, at)).map(|(t, _, _)| t.clone())
    }

    /// The change tag of a tournament (NotFound for an unknown tournament).
    fn stamp(&self, pool: &DbPool, tid: i32, seen: Option<i64>) -> Result<String, DbError> {
        if let Some(t) = self.stamp_cached(tid, seen) {
            return Ok(t);
        }
        let gen = self.generation(seen);
        let mut conn = pool.get()?;
        let (_, tag) = tdb::change_stamp(&mut conn, tid)?;
        lock(&self.stamps).insert(tid, (tag.clone(), gen, Instant::now()));
        Ok(tag)
    }

    /// The kept page at `key` if it is of the tournament's current state as known without
    /// reading the database (a fresh stamp); None otherwise. A key never kept costs no read of
    /// the database's version.
    async fn hit(&self, tid: i32, key: &(String, Lang)) -> Option<Arc<Cached>> {
        let page = self.last(key)?;
        let seen = self.seen().await;
        let tag = self.stamp_cached(tid, seen)?;
        (page.tag == tag).then_some(page)
    }

    fn page(&self, key: &(String, Lang), tag: &str) -> Option<Arc<Cached>> {
        lock(&self.pages).get(key).filter(|c| c.tag == tag).cloned()
    }

    /// The last copy of a page, whatever its state: what a reader gets while the database
    /// does not answer.
    fn last(&self, key: &(String, Lang)) -> Option<Arc<Cached>> {
        lock(&self.pages).get(key).cloned()
    }

    /// The page of an earlier state, if it is recent enough to stand in while the current one is
    /// rendered by someone else.
    fn recent(&self, key: &(String, Lang)) -> Option<Arc<Cached>> {
        lock(&self.pages).get(key).filter(|c| c.at.elapsed() < STALE_MAX).cloned()
    }

    fn store(&self, key: (String, Lang), page: Arc<Cached>) {
        let mut p = lock(&self.pages);
        if p.get(&key).is_some_and(|c| c.at > page.at) {
            // A page of a later state was stored while this one was rendered from an older
            // snapshot: keep the later one.
            return;
        }
        if p.len() >= MAX_PAGES {
            // Pages of an older state go first (older than this one's data: a page rendered
            // from a recent snapshot while a rebuild runs must not push out newer pages); then a
            // quarter of the rest (any).
            p.retain(|_, c| c.tag == page.tag || c.at > page.at);
            let extra = p.len().saturating_sub(MAX_PAGES * 3 / 4);
            let drop: Vec<(String, Lang)> = p.keys().take(extra).cloned().collect();
            for k in drop {
                p.remove(&k);
            }
        }
        p.insert(key, page);
    }

    /// The snapshot of a tournament at `tag`, built once (one database read for all its pages);
    /// a building read takes a second connection of `pool` too if one is free at once.
    pub(crate) fn snapshot(
        &self,
        pool: &DbPool,
        conn: &mut crate::db::Conn,
        tid: i32,
        tag: &str,
    ) -> Result<Arc<Snapshot>, DbError> {
        if let Some(s) = lock(&self.snapshots).get(&tid).filter(|s| s.tag == tag) {
            return Ok(s.clone());
        }
        // Never waits for a second connection: one held while waiting for another could
        // starve the pool.
        let mut spare = pool.try_get();
        let s = Arc::new(Snapshot::build(conn, spare.as_deref_mut(), tid, tag)?);
        lock(&self.snapshots).insert(tid, s.clone());
        Ok(s)
    }

    /// The page at `key` for a reader without a session: the cached page of the tournament's
    /// current state, or one rendered now (and kept if `cacheable`); `seen` is the database's
    /// version read for this reader.
    fn page_for(
        &self,
        pool: &DbPool,
        tid: i32,
        key: (String, Lang),
        kind: &Kind,
        cacheable: bool,
        seen: Option<i64>,
    ) -> Result<Arc<Cached>, DbError> {
        let tag = self.stamp(pool, tid, seen)?;
        if let Some(p) = self.page(&key, &tag) {
            return Ok(p);
        }
        // A page that is not kept (find-my-table with its search) is rendered for each reader
        // from the current snapshot, or one of a moment ago, without waiting for the render of
        // the cached pages (it used to queue behind every rebuild: 1.4 s at 10,000 players).
        if !cacheable && !kind.direct() {
            let snap = lock(&self.snapshots)
                .get(&tid)
                .filter(|s| s.tag == tag || s.at.elapsed() < STALE_MAX)
                .cloned();
            if let Some(snap) = snap {
                return self.make_page(&snap, key, kind, false);
            }
        }
        // One snapshot build or render at a time; while one runs, `while_busy` serves from the
        // recent past rather than queueing behind it.
        let one = if kind.direct() { &self.render_direct } else { &self.render };
        let _one = match one.try_lock() {
            Ok(g) => g,
            Err(std::sync::TryLockError::Poisoned(e)) => e.into_inner(),
            Err(std::sync::TryLockError::WouldBlock) => {
                if let Some(p) = self.while_busy(tid, &key, kind, cacheable) {
                    return p;
                }
                lock(one)
            }
        };
        if let Some(p) = self.page(&key, &tag) {
            return Ok(p);
        }
        self.build_page(pool, tid, &tag, key, kind, cacheable)
    }

    /// A page while another build or render runs: the page of the previous state if it is
    /// younger than STALE_MAX, or else that page rendered (outside the lock) from the last
    /// snapshot if that is as young; `None` (wait for the lock) if neither is, or the page is
    /// not kept. So a public page may lag a write by the length of one rebuild, never more
    /// than STALE_MAX; its ETag is the old state's, so the next request fetches the new page.
    /// Without this, a burst of writes queued every reader behind one rebuild per write
    /// (BENCHMARKS.md).
    fn while_busy(
        &self,
        tid: i32,
        key: &(String, Lang),
        kind: &Kind,
        cacheable: bool,
    ) -> Option<Result<Arc<Cached>, DbError>> {
        if !cacheable {
            return None;
        }
        if let Some(p) = self.recent(key) {
            return Some(Ok(p));
        }
        let snap = self.recent_snapshot(tid).filter(|_| !kind.direct())?;
        Some(self.make_page(&snap, key.clone(), kind, cacheable))
    }

    /// The page of state `tag` built now, under the render lock: a direct page read from the
    /// database, any other from the state's snapshot (built if it is not there yet).
    fn build_page(
        &self,
        pool: &DbPool,
        tid: i32,
        tag: &str,
        key: (String, Lang),
        kind: &Kind,
        cacheable: bool,
    ) -> Result<Arc<Cached>, DbError> {
        if kind.direct() {
            // Read after the tag: the page shows this state or a later one, and a later write
            // has changed the tag, so the next request renders again.
            let at = Instant::now();
            let html = render_direct(&mut *pool.get()?, tid, key.1, kind, &key.0, |c| c)?;
            return Ok(self.keep(tag, at, key, html, cacheable));
        }
        let snap = {
            let mut conn = pool.get()?;
            self.snapshot(pool, &mut conn, tid, tag)?
        };
        self.make_page(&snap, key, kind, cacheable)
    }

    /// The tournament's last snapshot, whatever its tag, if it was read less than
    /// [`STALE_MAX`] ago.
    fn recent_snapshot(&self, tid: i32) -> Option<Arc<Snapshot>> {
        lock(&self.snapshots).get(&tid).filter(|s| s.at.elapsed() < STALE_MAX).cloned()
    }

    /// Render one page of a snapshot (tagged with the snapshot's state and read time) and keep
    /// it if it is cacheable.
    fn make_page(
        &self,
        snap: &Snapshot,
        key: (String, Lang),
        kind: &Kind,
        cacheable: bool,
    ) -> Result<Arc<Cached>, DbError> {
        let started = Instant::now();
        let html = render(snap, key.1, kind, &key.0, |c| c)?;
        let rendered = started.elapsed();
        let page = self.keep(&snap.tag, snap.at, key, html, cacheable);
        tracing::debug!(
            render_ms = rendered.as_millis() as u64,
            gzip_ms = (started.elapsed() - rendered).as_millis() as u64,
            bytes = page.body.len(),
            "public page rendered"
        );
        Ok(page)
    }

    /// A rendered page of the state `tag` read at `at`, kept (with its gzipped form) if it is
    /// cacheable.
    fn keep(
        &self,
        tag: &str,
        at: Instant,
        key: (String, Lang),
        html: String,
        cacheable: bool,
    ) -> Arc<Cached> {
        let etag = self.etag(tag, key.1);
        let page = Arc::new(Cached {
            at,
            // Made of a random token, a change tag and a language code: visible ASCII.
            etag_header: header::HeaderValue::from_str(&etag).unwrap_or(header::HeaderValue::from_static("")),
            etag,
            tag: tag.to_string(),
            gzip: if cacheable { gzip(html.as_bytes()) } else { None },
            body: Bytes::from(html),
        });
        if cacheable {
            self.store(key, page.clone());
        }
        page
    }

    fn etag(&self, tag: &str, lang: Lang) -> String {
        format!("W/\"{}-{tag}-{}\"", self.boot, lang.code())
    }
}

/// What a public address asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Kind {
    Pairings {
        round: Option<i32>,
        q: String,
    },
    Results {
        round: Option<i32>,
    },
    Standings {
        round: Option<u32>,
    },
    Crosstable,
    Player {
        eid: i32,
    },
    /// The tournament's overview as the public sees it.
    Home,
    /// A published round's page with its draws (`rounds::public_round_page`).
    Round {
        n: i32,
    },
    /// The entrants (`entrants::public_players_page`).
    Players,
}

impl Kind {
    /// The address of this page with only the parameters it understands, so that odd query
    /// strings share one cached page instead of filling the cache.
    fn canonical(&self, tid: i32) -> String {
        let round = |r: Option<i32>| r.map(|r| format!("?round={r}")).unwrap_or_default();
        match self {
            Kind::Pairings { round: r, q } if q.is_empty() => format!("/t/{tid}/pairings{}", round(*r)),
            Kind::Pairings { round: r, q } => {
                let qs = serde_urlencoded::to_string([("q", q.as_str())]).unwrap_or_default();
                match r {
                    Some(r) => format!("/t/{tid}/pairings?round={r}&{qs}"),
                    None => format!("/t/{tid}/pairings?{qs}"),
                }
            }
            Kind::Results { round: r } => format!("/t/{tid}/results{}", round(*r)),
            Kind::Standings { round: r } => format!("/t/{tid}/standings{}", round(r.map(|r| r as i32))),
            Kind::Crosstable => format!("/t/{tid}/crosstable"),
            Kind::Player { eid } => format!("/t/{tid}/players/{eid}"),
            Kind::Home => format!("/t/{tid}"),
            Kind::Round { n } => format!("/t/{tid}/pairings/{n}"),
            Kind::Players => format!("/t/{tid}/players"),
        }
    }

    /// Whether the page is read from the database on its own ([`render_direct`]) rather than
    /// from the tournament's snapshot: the round page needs its draws and the players' list
    /// every entrant, which the other pages do not.
    fn direct(&self) -> bool {
        matches!(self, Kind::Round { .. } | Kind::Players)
    }
}

fn query(req: &HttpRequest) -> HashMap<String, String> {
    web::Query::<Vec<(String, String)>>::from_query(req.query_string())
        .map(|q| q.into_inner().into_iter().collect())
        .unwrap_or_default()
}

/// `?round=N`: absent is "the latest"; anything but a round number from 1 is a 400 saying so
/// (`round=abc` must not show the latest round as if it had been asked for).
fn round_param(req: &HttpRequest, q: &HashMap<String, String>) -> Result<Option<i32>, AppError> {
    let Some(v) = q.get("round") else { return Ok(None) };
    let lang = lang_of(req);
    crate::documents::parse_round(v)
        .ok()
        .and_then(|n| i32::try_from(n).ok())
        .filter(|n| *n <= 999)
        .map(Some)
        .ok_or_else(|| AppError::bad_request(lang, tr!(lang, "print.err_round", option = "round", got = v)))
}

/// Serve a public page: cached for readers without a session, rendered for staff.
async fn serve(req: HttpRequest, tid: i32, kind: Kind) -> Result<HttpResponse, AppError> {
    let lang = lang_of(&req);
    let state = req
        .app_data::<web::Data<AppState>>()
        .cloned()
        .ok_or_else(|| AppError::internal(lang, "no app state"))?;
    let has_session = req.cookie(SESSION_COOKIE).is_some_and(|c| !c.value().is_empty());
    if has_session {
        let ctx = Ctx::extract(&req).await?;
        if ctx.user().is_some() {
            return serve_signed_in(ctx, state, lang, tid, kind).await;
        }
    }
    let page = cached_page(&state, tid, kind, lang).await?;
    Ok(cached_response(&req, &page))
}

/// A public page for a signed-in reader: rendered now in the frame of the session (its user,
/// its logout form's token, the staff links if the reader is the tournament's staff), never
/// cached.
async fn serve_signed_in(
    ctx: Ctx,
    state: web::Data<AppState>,
    lang: Lang,
    tid: i32,
    kind: Kind,
) -> Result<HttpResponse, AppError> {
    let staff = ctx.staff_role(tid).await?.is_some();
    let path = kind.canonical(tid);
    let user = ctx.user().cloned();
    // The session's token, for the frame's logout form (a page rendered for staff).
    let csrf = ctx.csrf.clone();
    let html = ctx
        .db(move |c| {
            let frame = |mut chrome: Chrome| {
                chrome.user = user;
                chrome.staff = staff;
                chrome.csrf = csrf;
                chrome
            };
            if kind.direct() {
                return render_direct(c, tid, lang, &kind, &path, frame);
            }
            let (_, tag) = tdb::change_stamp(c, tid)?;
            let snap = state.public.snapshot(&state.pool, c, tid, &tag)?;
            render(&snap, lang, &kind, &path, frame)
        })
        .await?;
    let resp = HttpResponse::Ok()
        .content_type("text/html; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "private, no-cache"))
        .body(html);
    Ok(ctx.finish(resp))
}

/// The page for a reader without a session: the cached page of the current state if the
/// stamp is fresh, else `PublicCache::page_for` on the blocking pool.
async fn cached_page(
    state: &web::Data<AppState>,
    tid: i32,
    kind: Kind,
    lang: Lang,
) -> Result<Arc<Cached>, AppError> {
    let path = kind.canonical(tid);
    let cacheable = !matches!(&kind, Kind::Pairings { q, .. } if !q.is_empty());
    let key = (path, lang);
    let public = &state.public;
    let seen = public.seen().await;
    if let Some(p) = public.stamp_cached(tid, seen).and_then(|tag| public.page(&key, &tag)) {
        return Ok(p);
    }
    // The database's version could not be read in time: the last copy, not a wait.
    let last = if public.watch.is_some() && seen.is_none() { public.last(&key) } else { None };
    if let Some(p) = last {
        return Ok(p);
    }
    let st = state.clone();
    let k = key.clone();
    let page = super::ctx::on_db(move || st.public.page_for(&st.pool, tid, k, &kind, cacheable, seen)).await;
    match page.and_then(|p| p) {
        Ok(p) => Ok(p),
        Err(DbError::NotFound) => Err(AppError::not_found(lang)),
        // A database that fails meanwhile: the last copy if there is one.
        Err(e) => match public.last(&key).filter(|_| crate::db::StorageFault::of(&e.to_string()).is_some()) {
            Some(p) => Ok(p),
            None => Err(AppError::internal(lang, e)),
        },
    }
}

/// A cached page as the response: 304 when the reader's `If-None-Match` has its ETag, else
/// the page, gzipped for a reader who accepts it.
fn cached_response(req: &HttpRequest, page: &Cached) -> HttpResponse {
    use header::HeaderValue;
    let matches = req
        .headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == page.etag || t.trim() == "*"));
    let mut resp = if matches { HttpResponse::NotModified() } else { HttpResponse::Ok() };
    // Static header values and the page's own ETag value: no header is parsed per response.
    resp.insert_header((header::ETAG, page.etag_header.clone()))
        .insert_header((header::CACHE_CONTROL, HeaderValue::from_static(CACHE_CONTROL)))
        .insert_header((header::VARY, HeaderValue::from_static("Accept-Language, Cookie, Accept-Encoding")));
    if matches {
        return resp.finish();
    }
    resp.insert_header((header::CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8")));
    match &page.gzip {
        Some(z) if accepts_gzip(req) => {
            resp.insert_header((header::CONTENT_ENCODING, HeaderValue::from_static("gzip"))).body(z.clone())
        }
        _ => resp.body(page.body.clone()),
    }
}

/// Middleware, outermost: a reader without a session asking for a public page kept in the
/// cache at the tournament's current state gets it before the router runs (the router tries
/// its resources one regex at a time: most of what a cached page cost). Only a plain GET of an
/// address exactly as the cache keeps it (`Kind::canonical`, no query string) and a fresh
/// change tag are answered here; everything else, a miss included, goes on to the router and
/// the page's handler as before.
pub async fn cached_first(
    req: actix_web::dev::ServiceRequest,
    next: actix_web::middleware::Next<impl actix_web::body::MessageBody + 'static>,
) -> Result<actix_web::dev::ServiceResponse<actix_web::body::BoxBody>, actix_web::Error> {
    if let Some(resp) = cached_hit(&req).await {
        let resp = super::secured(&req, resp);
        return Ok(req.into_response(resp));
    }
    Ok(next.call(req).await?.map_into_boxed_body())
}

/// The response of [`cached_first`], if the request is answered from the cache.
async fn cached_hit(req: &actix_web::dev::ServiceRequest) -> Option<HttpResponse> {
    let tid = cacheable_address(req.method(), req.path(), req.query_string())?;
    let http = req.request();
    if http.cookie(SESSION_COOKIE).is_some_and(|c| !c.value().is_empty()) {
        return None; // perhaps staff: the handler decides
    }
    let state = req.app_data::<web::Data<AppState>>()?;
    let key = (req.path().to_string(), lang_of(http));
    let page = state.public.hit(tid, &key).await?;
    Some(cached_response(http, &page))
}

/// The tournament of a request the cache may answer before the router: a GET without a query
/// string of an address under `/t/{id}` with a plain decimal id (the cache's keys are made by
/// `Kind::canonical`, so any other spelling is not one of them).
fn cacheable_address(method: &actix_web::http::Method, path: &str, query: &str) -> Option<i32> {
    if method != actix_web::http::Method::GET || !query.is_empty() {
        return None;
    }
    let id = path.strip_prefix("/t/")?.split('/').next()?;
    if id.is_empty() || !id.bytes().all(|b| b.is_ascii_digit()) || id.starts_with('0') {
        return None;
    }
    id.parse().ok()
}

// ---------------------------------------------------------------------------------------------
// Rendering (runs on the blocking pool with a connection)
// ---------------------------------------------------------------------------------------------

/// The frame of a group's public page: named "{event} · {group}" beside its event's other
/// groups (`group`), by the tournament's name alone otherwise.
fn chrome(
    t: &TournamentRow,
    group: Option<&GroupTitle>,
    lang: Lang,
    path: &str,
    title: String,
    refresh: bool,
) -> Chrome {
    Chrome {
        lang,
        user: None,
        csrf: String::new(),
        path: path.to_string(),
        title,
        tid: Some(t.id),
        tname: crate::office::events::title(lang, t, group),
        event: group.map(|g| g.event_id),
        staff: false,
        team: t.system == crate::domain::settings::System::TeamRelay.code(),
        refresh: if refresh { REFRESH_SECS } else { 0 },
        live: Some(t.id.to_string()),
        live_self: false,
        zone: t.zone().name(),
    }
}

/// Everything the public pages of a tournament show, read from the database and computed once
/// per change tag: the tournament, its entrants, the games of the published rounds with their
/// results, the standings after the last round, rulings and records by game.
pub struct Snapshot {
    tag: String,
    /// When the database was read for it.
    at: Instant,
    pub(crate) t: TournamentRow,
    /// How the group names itself beside its event's other groups.
    pub(crate) group: Option<GroupTitle>,
    data: rdb::StandingsData,
    pub(crate) names: HashMap<i32, EntrantRow>,
    standings: ds::Standings,
    rulings: HashMap<i32, Vec<RulingRow>>,
    /// The round whose self check-in is open, if any.
    check_in: Option<i32>,
    sgf: HashSet<i32>,
    /// The highest published round with games, and whether it still has games without a result.
    pub(crate) current: Option<i32>,
    pub(crate) running: bool,
    rounds: Vec<i32>,
    /// Published rounds (as the overview counts them).
    published: u32,
    /// A team event's settings (the overview shows the rules its matches use).
    team: Option<crate::domain::team::event::TeamSettings>,
    /// Each round's start as stored (UTC), shown in the event's zone.
    pub(crate) starts: HashMap<i32, String>,
    /// The prize list is published (the home page links it).
    prizes_published: bool,
    /// The hall number of table 1 of each published round (tournament practice: one hall).
    hall_firsts: HashMap<i32, i32>,
    /// The group's event, and whether its registration form is open (the home page links it).
    registration: (i32, bool),
    /// The ratings after the event (EGF GoR), by entrant, once an organizer computed them.
    ratings: HashMap<i32, crate::db::rating_changes::RatingChange>,
    /// The entrants' names read for find-my-table, made by the first search of this state.
    search: std::sync::OnceLock<HashMap<i32, crate::domain::names::Searchable>>,
}

impl Snapshot {
    fn build(
        conn: &mut crate::db::Conn,
        spare: Option<&mut crate::db::Conn>,
        tid: i32,
        tag: &str,
    ) -> Result<Snapshot, DbError> {
        let started = Instant::now();
        let t = tdb::get(conn, tid)?;
        let data = rdb::standings_data_on(conn, spare, tid)?;
        let read = started.elapsed();
        let standings = rdb::latest_standings(&t, &data);
        let computed = started.elapsed();
        let current = data.lines.iter().map(|l| l.game.round_number).max();
        let running = data.lines.iter().any(|l| Some(l.game.round_number) == current && !l.has_result());
        let mut rounds: Vec<i32> = data.lines.iter().map(|l| l.game.round_number).collect();
        rounds.dedup();
        let (published, _) = tdb::published_rounds(conn, tid)?;
        let check_in_round = crate::db::check_in::current_round(conn, tid)?;
        let check_in = (crate::db::check_in::code(conn, tid)?.is_some()
            && !crate::db::check_in::round_state(conn, tid, check_in_round)?.closed())
        .then_some(check_in_round);
        let team = match is_team_event(&t) {
            true => Some(crate::db::teams::settings(conn, tid)?.0),
            false => None,
        };
        tracing::debug!(
            tid,
            read_ms = read.as_millis() as u64,
            standings_ms = (computed - read).as_millis() as u64,
            total_ms = started.elapsed().as_millis() as u64,
            "public snapshot built"
        );
        let hall_firsts = crate::db::rounds::list(conn, tid)?
            .into_iter()
            .filter(|r| r.published)
            .map(|r| (r.number, r.hall_first))
            .collect();
        Ok(Snapshot {
            ratings: crate::db::rating_changes::for_tournament(conn, tid)?
                .into_iter()
                .map(|c| (c.entrant_id, c))
                .collect(),
            hall_firsts,
            search: std::sync::OnceLock::new(),
            check_in,
            published,
            team,
            tag: tag.to_string(),
            at: Instant::now(),
            names: data.entrants.iter().map(|e| (e.id, e.clone())).collect(),
            rulings: rdb::rulings_by_game(conn, tid)?,
            starts: rdb::round_starts(conn, tid)?,
            prizes_published: crate::db::prizes::settings(conn, tid)?.0.published,
            registration: crate::db::registrations::link_of(conn, tid)?,
            sgf: rdb::games_with_sgf(conn, tid)?.into_iter().collect(),
            group: crate::db::event_pages::group_title(conn, tid)?,
            t,
            data,
            standings,
            current,
            running,
            rounds,
        })
    }

    /// The hall number of `game`'s table (0 for a bye).
    fn hall_table(&self, game: &crate::db::rounds::RoundGame) -> i32 {
        let first = self.hall_firsts.get(&game.round_number).copied().unwrap_or(1);
        super::views::text::hall_table(first, game.board)
    }

    /// Every entrant's name read for searching, once per snapshot.
    fn searchable(&self) -> &HashMap<i32, crate::domain::names::Searchable> {
        self.search.get_or_init(|| {
            self.names.iter().map(|(id, e)| (*id, crate::domain::names::Searchable::new(&e.name()))).collect()
        })
    }

    fn lines(&self, round: i32) -> Vec<&GameLine> {
        self.data.lines.iter().filter(|l| l.game.round_number == round).collect()
    }
}

fn render(
    snap: &Snapshot,
    lang: Lang,
    kind: &Kind,
    path: &str,
    frame: impl FnOnce(Chrome) -> Chrome,
) -> Result<String, DbError> {
    let html = match kind {
        Kind::Pairings { round, q } => {
            let page = pairings(snap, lang, round.or(snap.current), q, path);
            PairingsPage { c: frame(page.c), ..page }.render()
        }
        Kind::Results { round } => {
            let page = results(snap, lang, round.or(snap.current), path);
            PairingsPage { c: frame(page.c), ..page }.render()
        }
        Kind::Standings { round } => {
            let page = standings(snap, lang, *round, path);
            StandingsPage { c: frame(page.c), ..page }.render()
        }
        Kind::Crosstable => {
            let page = crosstable(snap, lang, path);
            CrosstablePage { c: frame(page.c), ..page }.render()
        }
        Kind::Player { eid } => {
            let page = player(snap, lang, *eid, path)?;
            PlayerPage { c: frame(page.c), ..page }.render()
        }
        Kind::Home => {
            let title = crate::office::events::title(lang, &snap.t, snap.group.as_ref());
            let c = frame(chrome(&snap.t, snap.group.as_ref(), lang, path, title, false));
            let n = snap.data.entrants.len() as i64;
            let page = super::views::tournament::tournament_page(
                c,
                lang,
                snap.t.clone(),
                n,
                snap.published,
                snap.team,
            );
            super::views::pages::TournamentPage {
                check_in: snap.check_in,
                prizes_published: snap.prizes_published,
                event_id: snap.registration.0,
                registration_open: snap.registration.1,
                ..page
            }
            .render()
        }
        Kind::Round { .. } | Kind::Players => return Err(DbError::Other("not a snapshot page".into())),
    };
    html.map_err(|e| DbError::Other(format!("template: {e}")))
}

/// Render a page that is read from the database on its own (see [`Kind::direct`]).
fn render_direct(
    conn: &mut crate::db::Conn,
    tid: i32,
    lang: Lang,
    kind: &Kind,
    path: &str,
    frame: impl FnOnce(Chrome) -> Chrome,
) -> Result<String, DbError> {
    let group = crate::db::event_pages::group_title(conn, tid)?;
    let html = match kind {
        Kind::Round { n } => super::rounds::public_round_page(conn, tid, *n, lang, |t, title| {
            frame(chrome(t, group.as_ref(), lang, path, title, false))
        })?
        .render(),
        Kind::Players => super::entrants::public_players_page(conn, tid, lang, |t, title| {
            frame(chrome(t, group.as_ref(), lang, path, title, false))
        })?
        .render(),
        _ => return Err(DbError::Other("a snapshot page".into())),
    };
    html.map_err(|e| DbError::Other(format!("template: {e}")))
}

fn seat(lang: Lang, names: &HashMap<i32, EntrantRow>, id: Option<i32>) -> Option<Seat> {
    let e = names.get(&id?)?;
    Some(Seat {
        id: e.id,
        name: display_name(e, lang.is_zh()),
        rank: rank_text(lang, &e.rank),
        unit: e.unit.clone(),
    })
}

/// The tables of `lines` as the public pages show them; with `found`, only the tables of the
/// players it finds (marked as found).
fn table_lines(
    (lang, snap): (Lang, &Snapshot),
    lines: &[&GameLine],
    found: Option<&dyn Fn(i32) -> bool>,
) -> Vec<TableLine> {
    let names = &snap.names;
    lines
        .iter()
        .filter_map(|l| {
            let hit = found.is_some_and(|f| [l.game.black_id, l.game.white_id].into_iter().flatten().any(f));
            if found.is_some() && !hit {
                return None;
            }
            let (black, white) = l.played();
            Some(TableLine {
                gid: l.game.id,
                board: snap.hall_table(&l.game),
                black: seat(lang, names, black),
                white: seat(lang, names, white),
                handicap: l.game.handicap,
                result: line_result(lang, l),
                found: hit,
                swapped: l.game.played_swapped,
                replay_of: l.game.replay_of,
            })
        })
        .collect()
}

pub(crate) fn pairings(snap: &Snapshot, lang: Lang, round: Option<i32>, q: &str, path: &str) -> PairingsPage {
    let lines: Vec<&GameLine> = round.map(|r| snap.lines(r)).unwrap_or_default();
    // Characters, full pinyin or initials (`kj`, `kejie` → 柯洁): domain::names, against the
    // snapshot's names read once.
    let needle = crate::domain::names::Query::new(q);
    let search = (!q.trim().is_empty()).then(|| snap.searchable());
    let finds = |id: i32| {
        !needle.is_empty() && search.is_some_and(|m| m.get(&id).is_some_and(|n| needle.matches_read(n)))
    };
    let found_fn: Option<&dyn Fn(i32) -> bool> = search.is_some().then_some(&finds as &dyn Fn(i32) -> bool);
    let mut table = table_lines((lang, snap), &lines, found_fn);
    // Byes after the tables.
    table.sort_by_key(|l| (l.black.is_none() || l.white.is_none(), l.board));
    let found = table.iter().filter(|l| l.found).count();
    let title = match round {
        Some(r) => tr!(lang, "pub.pairings_round", round = r),
        None => lang.t("pub.pairings").to_string(),
    };
    PairingsPage {
        c: chrome(&snap.t, snap.group.as_ref(), lang, path, title, snap.running && round == snap.current),
        tid: snap.t.id,
        round,
        round_n: round.unwrap_or(0),
        rounds: snap.rounds.clone(),
        q: q.to_string(),
        lines: table,
        found,
        results: false,
        starts_at: round.and_then(|r| snap.starts.get(&r)).map(|t| snap.t.zone().time(t)).unwrap_or_default(),
    }
}

pub(crate) fn results(snap: &Snapshot, lang: Lang, round: Option<i32>, path: &str) -> PairingsPage {
    let mut p = pairings(snap, lang, round, "", path);
    p.c.title = match round {
        Some(r) => tr!(lang, "pub.results_round", round = r),
        None => lang.t("pub.results").to_string(),
    };
    PairingsPage { q: String::new(), found: 0, results: true, ..p }
}

fn place_text(r: &ds::Row) -> String {
    if r.shared {
        format!("{}=", r.place)
    } else {
        r.place.to_string()
    }
}

/// The standings' rows with the `shown` tie-breaks' values, entrants named for the reader.
fn standing_lines(
    snap: &Snapshot,
    lang: Lang,
    st: &ds::Standings,
    shown: &[(usize, TieBreak)],
) -> Vec<StandingLine> {
    st.rows
        .iter()
        .filter_map(|r| {
            let e = snap.names.get(&i32::try_from(r.id).ok()?)?;
            Some(StandingLine {
                place: place_text(r),
                id: e.id,
                name: display_name(e, lang.is_zh()),
                rank: rank_text(lang, &e.rank),
                unit: e.unit.clone(),
                score: ds::halves_text(r.score),
                values: shown
                    .iter()
                    .map(|(k, tb)| r.values[*k].map(|v| ds::value_text(*tb, v)).unwrap_or_else(|| "–".into()))
                    .collect(),
                withdrawn: e.withdrawn_as_of(st.after_round),
                gor: snap
                    .ratings
                    .get(&e.id)
                    .map(|c| super::views::text::gor_text(lang, c))
                    .unwrap_or_default(),
            })
        })
        .collect()
}

pub(crate) fn standings(snap: &Snapshot, lang: Lang, round: Option<u32>, path: &str) -> StandingsPage {
    let other;
    let st = match round {
        Some(r) if r < snap.standings.after_round => {
            other = rdb::standings_of(&snap.t, &snap.data.as_of(Some(r)));
            &other
        }
        _ => &snap.standings,
    };
    let shown: Vec<(usize, TieBreak)> =
        st.tiebreaks.iter().copied().enumerate().filter(|(_, t)| *t != TieBreak::Score).collect();
    let lines = standing_lines(snap, lang, st, &shown);
    let in_order = st.rows.iter().filter_map(|r| snap.names.get(&i32::try_from(r.id).ok()?));
    let notes = crate::office::print_data::withdrawal_notes(
        lang,
        st.after_round,
        in_order.map(|e| (e, display_name(e, lang.is_zh()))),
    );
    let order = super::views::text::tiebreak_order(lang, &st.tiebreaks);
    let title = if st.after_round > 0 {
        tr!(lang, "pub.standings_after", round = st.after_round)
    } else {
        lang.t("pub.standings").to_string()
    };
    let latest = st.after_round >= snap.standings.after_round;
    StandingsPage {
        c: chrome(&snap.t, snap.group.as_ref(), lang, path, title, snap.running),
        tid: snap.t.id,
        after: st.after_round,
        rounds: (1..=snap.data.last_round).collect(),
        columns: shown.iter().map(|(_, tb)| lang.t(&format!("tb.{}", tb.code())).to_string()).collect(),
        lines,
        notes,
        order,
        and_round: if latest { String::new() } else { format!("&amp;round={}", st.after_round) },
        only_round: if latest { String::new() } else { format!("?round={}", st.after_round) },
        gor_shown: latest && !snap.ratings.is_empty(),
    }
}

/// A crosstable cell: the opponent's place, the result and the colour ("12+b", "7−w", "3=b",
/// "+!" for a forfeit win, "×" for a double loss, the bye's own sign).
fn cell_text(lang: Lang, c: &ds::Cell, place: &HashMap<u32, u32>) -> String {
    let Some(o) = c.opponent else {
        return lang.t("pub.bye_cell").to_string();
    };
    let sign = match (c.outcome, c.forfeit, c.double_loss) {
        (_, _, true) => "×",
        (Outcome::Win, false, _) => "+",
        (Outcome::Win, true, _) => "+!",
        (Outcome::Loss, false, _) => "−",
        (Outcome::Loss, true, _) => "−!",
        (Outcome::Draw, _, _) => "=",
    };
    let colour = match c.colour {
        Some(Colour::Black) => lang.t("colour.cross_black"),
        Some(Colour::White) => lang.t("colour.cross_white"),
        None => "",
    };
    format!("{}{sign}{colour}", place.get(&o).copied().unwrap_or(0))
}

fn crosstable(snap: &Snapshot, lang: Lang, path: &str) -> CrosstablePage {
    let st = &snap.standings;
    let place: HashMap<u32, u32> = st.rows.iter().map(|r| (r.id, r.place)).collect();
    let rounds: Vec<u32> = (1..=st.after_round).collect();
    let lines = st
        .rows
        .iter()
        .filter_map(|r| {
            let e = snap.names.get(&i32::try_from(r.id).ok()?)?;
            let cells = rounds
                .iter()
                .map(|n| {
                    let v: Vec<String> = r
                        .cells
                        .iter()
                        .filter(|c| c.round == *n)
                        .map(|c| cell_text(lang, c, &place))
                        .collect();
                    if v.is_empty() {
                        "–".to_string()
                    } else {
                        v.join(" ")
                    }
                })
                .collect();
            Some(CrossLine {
                place: place_text(r),
                id: e.id,
                name: display_name(e, lang.is_zh()),
                rank: rank_text(lang, &e.rank),
                cells,
                score: ds::halves_text(r.score),
            })
        })
        .collect();
    CrosstablePage {
        c: chrome(
            &snap.t,
            snap.group.as_ref(),
            lang,
            path,
            lang.t("pub.crosstable").to_string(),
            snap.running,
        ),
        tid: snap.t.id,
        rounds,
        lines,
    }
}

fn ruling_line(lang: Lang, zone: EventZone, r: &RulingRow) -> String {
    let kind = r.kind().map(|k| lang.ruling_kind(k)).unwrap_or_default();
    let mut s = tr!(lang, "pub.ruling_at", kind, move = r.move_number);
    if !r.at_time.is_empty() {
        s.push_str(&format!(" ({})", zone.time(&r.at_time)));
    }
    if !r.reason.is_empty() {
        s.push_str(&format!(": {}", r.reason));
    }
    s
}

/// A player's page: rank, unit, place and score, and every game they played.
fn player(snap: &Snapshot, lang: Lang, eid: i32, path: &str) -> Result<PlayerPage, DbError> {
    let me = snap.names.get(&eid).ok_or(DbError::NotFound)?;
    let row = snap.standings.rows.iter().find(|r| i64::from(r.id) == i64::from(eid));
    let games = snap
        .data
        .lines
        .iter()
        .filter(|l| l.game.black_id == Some(eid) || l.game.white_id == Some(eid))
        .map(|l| player_game(snap, lang, eid, l))
        .collect();
    let name = display_name(me, lang.is_zh());
    let other = display_name(me, !lang.is_zh());
    Ok(PlayerPage {
        c: chrome(&snap.t, snap.group.as_ref(), lang, path, name.clone(), snap.running),
        tid: snap.t.id,
        other_name: if other == name { String::new() } else { other },
        name,
        rank: rank_text(lang, &me.rank),
        unit: me.unit.clone(),
        withdrawn: me.withdrawn(),
        place: row.map(place_text).unwrap_or_default(),
        score: row.map(|r| ds::halves_text(r.score)).unwrap_or_default(),
        games,
        person: me.person_id,
        gor: snap.ratings.get(&eid).map(|c| {
            (
                crate::domain::gor::whole(c.rating_before.into()).to_string(),
                super::views::text::gor_text(lang, c),
            )
        }),
    })
}

/// One game of player `eid` as their page lists it: the colour they played (the sheet's
/// colours, rules.md §4.3), the opponent, the result and what it was for them, the rulings
/// that concern them.
fn player_game(snap: &Snapshot, lang: Lang, eid: i32, l: &GameLine) -> PlayerGame {
    let g = &l.game;
    let (pb, pw) = l.played();
    let black = pb == Some(eid);
    let opp = if black { pw } else { pb };
    let outcome = l.outcome();
    let score =
        outcome.and_then(|o| o.score_for(if black { rules::Color::Black } else { rules::Color::White }));
    PlayerGame {
        round: g.round_number,
        board: snap.hall_table(g),
        colour: match (pb.is_some(), pw.is_some(), black) {
            (true, true, true) => lang.t("r.black").to_string(),
            (true, true, false) => lang.t("r.white").to_string(),
            _ => String::new(),
        },
        opponent: seat(lang, &snap.names, opp),
        result: line_result(lang, l),
        outcome: match score {
            Some(rules::rulings::GameScore::Win) => "won",
            Some(rules::rulings::GameScore::Loss) => "lost",
            Some(rules::rulings::GameScore::Draw) => "drawn",
            None => "",
        },
        rulings: snap
            .rulings
            .get(&g.id)
            .map(|v| {
                v.iter()
                    .filter(|r| match r.against.as_deref() {
                        Some("black") => black,
                        Some("white") => !black,
                        _ => true,
                    })
                    .map(|r| ruling_line(lang, snap.t.zone(), r))
                    .collect()
            })
            .unwrap_or_default(),
        gid: g.id,
        has_sgf: snap.sgf.contains(&g.id),
        swapped: g.played_swapped,
        replay_of: g.replay_of,
    }
}

// ---------------------------------------------------------------------------------------------
// Handlers
// ---------------------------------------------------------------------------------------------

pub async fn pairings_page(req: HttpRequest, path: web::Path<String>) -> Result<HttpResponse, AppError> {
    let tid = id(lang_of(&req), &path)?;
    let q = query(&req);
    let needle: String = q.get("q").map(|s| s.trim().chars().take(50).collect()).unwrap_or_default();
    serve(req.clone(), tid, Kind::Pairings { round: round_param(&req, &q)?, q: needle }).await
}

pub async fn results_page(req: HttpRequest, path: web::Path<String>) -> Result<HttpResponse, AppError> {
    let tid = id(lang_of(&req), &path)?;
    let q = query(&req);
    serve(req.clone(), tid, Kind::Results { round: round_param(&req, &q)? }).await
}

pub async fn standings_page(req: HttpRequest, path: web::Path<String>) -> Result<HttpResponse, AppError> {
    let tid = id(lang_of(&req), &path)?;
    let q = query(&req);
    let round = round_param(&req, &q)?.and_then(|r| u32::try_from(r).ok());
    serve(req.clone(), tid, Kind::Standings { round }).await
}

/// The tournament's overview for readers without a session (see `tournaments::overview`).
pub async fn home_page(req: HttpRequest, tid: i32) -> Result<HttpResponse, AppError> {
    serve(req, tid, Kind::Home).await
}

pub async fn crosstable_page(req: HttpRequest, path: web::Path<String>) -> Result<HttpResponse, AppError> {
    let tid = id(lang_of(&req), &path)?;
    serve(req.clone(), tid, Kind::Crosstable).await
}

/// GET /t/{id}/pairings/{n}: a published round (a draft is not public: 404).
pub async fn round_page(
    req: HttpRequest,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, AppError> {
    let lang = lang_of(&req);
    let tid = id(lang, &path.0)?;
    let n = id(lang, &path.1)?;
    serve(req.clone(), tid, Kind::Round { n }).await
}

/// GET /t/{id}/players: the list of entrants.
pub async fn players_page(req: HttpRequest, path: web::Path<String>) -> Result<HttpResponse, AppError> {
    let tid = id(lang_of(&req), &path)?;
    serve(req.clone(), tid, Kind::Players).await
}

pub async fn player_page(
    req: HttpRequest,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, AppError> {
    let lang = lang_of(&req);
    let tid = id(lang, &path.0)?;
    let eid = id(lang, &path.1)?;
    serve(req.clone(), tid, Kind::Player { eid }).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::audit::Change;
    use crate::db::Actor;

    fn tournament() -> (tempfile::TempDir, DbPool, i32) {
        let dir = tempfile::tempdir().unwrap();
        let pool = crate::db::open(&dir.path().join("t.db")).unwrap();
        let mut s = crate::domain::settings::TournamentSettings::defaults(
            chrono::NaiveDate::MIN,
            crate::machine::zone(),
        );
        s.name_latin = "Cache".into();
        let tid = tdb::create(&mut pool.get().unwrap(), &Actor::system("test"), &s).unwrap();
        (dir, pool, tid)
    }

    /// A snapshot read on two connections at once is the snapshot read on one: the same
    /// entrants, the same games of the published rounds in round and table order with the
    /// same outcomes, the same standings (they count rounds 1..N only, so a
    /// line out of order or missing would move a place). Three groups of the demo event, two
    /// rounds played and a third published, each with three or fewer rounds to split.
    #[test]
    fn a_snapshot_read_on_two_connections_is_the_one_read_on_one() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("demo.db");
        crate::cli::demo::run(&path, crate::cli::demo::DemoArgs { entrants: 150, seed: 7 }).unwrap();
        let pool = crate::db::open(&path).unwrap();
        let tids: Vec<i32> = tdb::list(&mut pool.get().unwrap()).unwrap().iter().map(|t| t.id).collect();
        assert_eq!(tids.len(), 3);
        let shown = |s: &Snapshot| {
            let lines: Vec<_> =
                s.data.lines.iter().map(|l| (l.game.id, l.game.round_number, l.outcome())).collect();
            let entrants: Vec<i32> = s.data.entrants.iter().map(|e| e.id).collect();
            (lines, entrants, s.data.last_round, s.standings.clone(), s.rounds.clone())
        };
        for tid in tids {
            let mut conn = pool.get().unwrap();
            let one = Snapshot::build(&mut conn, None, tid, "t").unwrap();
            let mut spare = pool.get().unwrap();
            let two = Snapshot::build(&mut conn, Some(&mut spare), tid, "t").unwrap();
            assert_eq!(one.rounds, [1, 2, 3], "three published rounds in group {tid}");
            assert!(
                one.data.lines.iter().filter(|l| l.outcome().is_some()).count() > 10,
                "group {tid} has results"
            );
            assert_eq!(shown(&one), shown(&two), "group {tid}");
        }
    }

    /// An audited write: the tournament gets a new change tag.
    fn write(pool: &DbPool, tid: i32) {
        let change: Change<'_, (), ()> = Change {
            tournament_id: Some(tid),
            action: crate::db::audit::AuditAction::TournamentUpdate,
            entity_id: Some(tid),
            before: None,
            after: None,
            reason: "",
        };
        crate::db::audit::record(&mut pool.get().unwrap(), &Actor::system("test"), change).unwrap();
    }

    fn key(tid: i32) -> (String, Lang) {
        (Kind::Standings { round: None }.canonical(tid), Lang::En)
    }

    /// No rule article (the public pages' cache): only a plain GET of `/t/{id}…` without a
    /// query string, with a decimal id as `Kind::canonical` writes it, is answered before the
    /// router.
    #[test]
    fn only_canonical_addresses_are_answered_before_the_router() {
        use actix_web::http::Method;
        assert_eq!(cacheable_address(&Method::GET, "/t/12/standings", ""), Some(12));
        assert_eq!(cacheable_address(&Method::GET, "/t/12", ""), Some(12));
        assert_eq!(cacheable_address(&Method::GET, "/t/12/players/7", ""), Some(12));
        assert_eq!(cacheable_address(&Method::GET, "/t/12/standings", "round=2"), None);
        assert_eq!(cacheable_address(&Method::POST, "/t/12/standings", ""), None);
        assert_eq!(cacheable_address(&Method::HEAD, "/t/12/standings", ""), None);
        for path in ["/t/012/standings", "/t/+12/standings", "/t//standings", "/t/abc", "/standings", "/"] {
            assert_eq!(cacheable_address(&Method::GET, path, ""), None, "{path}");
        }
        assert_eq!(cacheable_address(&Method::GET, "/t/99999999999/standings", ""), None);
        // Every cached page's key is such an address.
        for kind in [
            Kind::Standings { round: None },
            Kind::Crosstable,
            Kind::Player { eid: 5 },
            Kind::Home,
            Kind::Round { n: 3 },
            Kind::Players,
            Kind::Pairings { round: None, q: String::new() },
            Kind::Results { round: None },
        ] {
            assert_eq!(cacheable_address(&Method::GET, &kind.canonical(7), ""), Some(7), "{kind:?}");
        }
    }

    /// No rule article (the public pages' cache): the cache answers before the router only with
    /// a kept page of the tournament's current state; after a write, or for an address never
    /// kept, the handler runs.
    #[test]
    fn a_hit_before_the_router_is_a_page_of_the_current_state() {
        let (_d, pool, tid) = tournament();
        let pc = PublicCache::default();
        let kind = Kind::Standings { round: None };
        let hit = |pc: &PublicCache, key| actix_web::rt::System::new().block_on(pc.hit(tid, &key));
        assert!(hit(&pc, key(tid)).is_none(), "nothing kept yet");
        let page = pc.page_for(&pool, tid, key(tid), &kind, true, None).unwrap();
        assert!(hit(&pc, key(tid)).is_some_and(|p| Arc::ptr_eq(&p, &page)));
        assert!(hit(&pc, (Kind::Crosstable.canonical(tid), Lang::En)).is_none(), "another page");
        assert!(hit(&pc, (kind.canonical(tid), Lang::Zh)).is_none(), "another language");
        write(&pool, tid);
        assert!(hit(&pc, key(tid)).is_none(), "a write by this process: the handler renders again");
        let again = pc.page_for(&pool, tid, key(tid), &kind, true, None).unwrap();
        assert!(hit(&pc, key(tid)).is_some_and(|p| Arc::ptr_eq(&p, &again)));
        assert_eq!(page.etag_header, page.etag.as_str(), "the header is the ETag");
    }

    #[test]
    fn a_write_is_shown_at_once_when_no_render_is_running() {
        let (_d, pool, tid) = tournament();
        let pc = PublicCache::default();
        let kind = Kind::Standings { round: None };
        let first = pc.page_for(&pool, tid, key(tid), &kind, true, None).unwrap();
        let again = pc.page_for(&pool, tid, key(tid), &kind, true, None).unwrap();
        assert!(Arc::ptr_eq(&first, &again), "the same state is rendered once");
        write(&pool, tid);
        let after = pc.page_for(&pool, tid, key(tid), &kind, true, None).unwrap();
        assert_ne!(after.etag, first.etag, "a write by this process is seen at once");
        assert_eq!(after.tag, tdb::change_stamp(&mut pool.get().unwrap(), tid).unwrap().1);
    }

    #[test]
    fn while_a_render_runs_readers_get_the_page_of_a_moment_ago_instead_of_queueing() {
        let (_d, pool, tid) = tournament();
        let pc = PublicCache::default();
        let kind = Kind::Standings { round: None };
        let first = pc.page_for(&pool, tid, key(tid), &kind, true, None).unwrap();
        write(&pool, tid);
        let current = tdb::change_stamp(&mut pool.get().unwrap(), tid).unwrap().1;
        {
            // Another reader is rendering: this one gets the page of a moment ago at once.
            let _busy = lock(&pc.render);
            let p = pc.page_for(&pool, tid, key(tid), &kind, true, None).unwrap();
            assert!(Arc::ptr_eq(&p, &first), "the previous state's page, not a queue");
            // A page never rendered before comes from the last snapshot, outside the lock.
            let other = (Kind::Crosstable.canonical(tid), Lang::En);
            let p = pc.page_for(&pool, tid, other, &Kind::Crosstable, true, None).unwrap();
            assert_eq!(p.tag, first.tag, "rendered from the recent snapshot");
        }
        // The render is done: the current state.
        let p = pc.page_for(&pool, tid, key(tid), &kind, true, None).unwrap();
        assert_eq!(p.tag, current);
    }
}
