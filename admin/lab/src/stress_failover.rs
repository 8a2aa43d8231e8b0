//! `tengen-lab stress failover`: proof that the office survives the loss of any one machine.
//!
//! The run starts three etcd members and two PostgreSQL nodes under Patroni (synchronous
//! replication, strict: [`crate::ha_cluster`]) and two Tengen servers (this very binary, as
//! `stress crash` starts them) on the multi-host address of both nodes
//! (`target_session_attrs=read-write`). The clients of `stress crash` write through the real
//! forms while each trial does one thing to the office: SIGKILL the primary's PostgreSQL and
//! Patroni (a power cut; the node is started again and rejoins as the standby), SIGSTOP them
//! for a few seconds then SIGCONT (a machine frozen or cut off, seen from outside), SIGKILL an
//! etcd member (started again after a few seconds), or a rolling upgrade (the next release's
//! additive migration under the migrations' lock while the servers write, then the two Tengen
//! servers replaced one after the other, serving on the new schema). After each trial, once the cluster has a primary and its
//! synchronous standby again: every acknowledged write is there with its audit rows (the facts
//! of `stress crash`, read through the servers' own address, so on the primary), and
//! `pg_amcheck` finds nothing on the primary. A thread polls Patroni's REST API (`/primary` on
//! each node, every 100 ms) for the longest time without a primary. A 503 (the "database
//! unavailable" page, what was typed kept) is the documented answer during a failover; any
//! other 5xx fails the run.

use clap::Args;
use rand_chacha::rand_core::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::ha_cluster::HaCluster;
use crate::stress::{self, ClientState, Counts, Http, Server, WriteKind};
use crate::stress_db::{Fact, Store};

#[derive(Args, Debug, Clone)]
pub struct FailoverArgs {
    /// Number of trials (one fault each).
    #[arg(long, default_value_t = 12)]
    pub trials: u32,
    /// Concurrent write clients, spread over the two Tengen servers.
    #[arg(long, default_value_t = 4)]
    pub clients: usize,
    /// Seed of every random choice (faults, their moments, writes).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Earliest fault, in milliseconds after the writers start.
    #[arg(long, default_value_t = 300)]
    pub min_fault_ms: u64,
    /// Latest fault, in milliseconds after the writers start.
    #[arg(long, default_value_t = 2000)]
    pub max_fault_ms: u64,
    /// Longest freeze (SIGSTOP) of the primary, in seconds (each at least 2 s); above
    /// Patroni's leader TTL (10 s) the standby takes over meanwhile.
    #[arg(long, default_value_t = 16)]
    pub max_freeze_s: u64,
    /// Faults, comma separated (kill-primary, freeze-primary, kill-etcd, rolling-upgrade): the
    /// first trials do each in turn, the rest one of them at random.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "kill-primary,freeze-primary,kill-etcd,rolling-upgrade"
    )]
    pub faults: Vec<String>,
    /// Write kinds, comma separated (entrant-create, entrant-edit, result-entry, ruling-add).
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "entrant-create,entrant-edit,result-entry,ruling-add"
    )]
    pub writes: Vec<String>,
    /// Games in the published round the result and ruling writers share.
    #[arg(long, default_value_t = 12)]
    pub games: usize,
    /// Write the JSON report to this file (standard output when absent).
    #[arg(long)]
    pub report: Option<PathBuf>,
    /// Keep the temporary directory with the logs and the Patroni settings (its path is
    /// reported).
    #[arg(long)]
    pub keep: bool,
    /// PostgreSQL's server programs; by default `pg_config --bindir`.
    #[arg(long)]
    pub pg_bin: Option<PathBuf>,
}

/// The longest the office may be without a primary in any trial (the goal).
pub const PRIMARY_GAP_GOAL: Duration = Duration::from_secs(30);

/// What one trial does to the office.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fault {
    /// SIGKILL the primary's PostgreSQL and Patroni; start Patroni again once the other node
    /// is the primary.
    KillPrimary,
    /// SIGSTOP the primary's PostgreSQL and Patroni for this many seconds, then SIGCONT.
    FreezePrimary(u64),
    /// SIGKILL etcd member `.0`, start it again after `.1` seconds.
    KillEtcd(usize, u64),
    /// The next release: its additive migration under the migrations' lock while both servers
    /// serve, then server 0 replaced, then server 1, while the clients of the other write; the
    /// servers then run on the new schema (the one-release rule of docs/operating.md).
    RollingUpgrade,
}

impl Fault {
    /// The kinds by name, as `--faults` takes them.
    const KINDS: [&'static str; 4] = ["kill-primary", "freeze-primary", "kill-etcd", "rolling-upgrade"];

    /// The fault of trial `trial` (from 1): the kinds of `kinds` in turn first, then one of them
    /// at random.
    fn pick(rng: &mut ChaCha8Rng, trial: u32, kinds: &[String], max_freeze_s: u64) -> Fault {
        let n = kinds.len().max(1) as u64;
        let which = if u64::from(trial) <= n { u64::from(trial - 1) } else { rng.next_u64() % n };
        match kinds.get(which as usize).map(|k| k.trim()).unwrap_or("kill-primary") {
            "kill-primary" => Fault::KillPrimary,
            "freeze-primary" => Fault::FreezePrimary(stress::pick(rng, 2, max_freeze_s.max(2))),
            "kill-etcd" => Fault::KillEtcd((rng.next_u64() % 3) as usize, stress::pick(rng, 1, 5)),
            _ => Fault::RollingUpgrade,
        }
    }

    fn name(self) -> String {
        match self {
            Fault::KillPrimary => "SIGKILL primary (postgres + patroni)".into(),
            Fault::FreezePrimary(s) => format!("SIGSTOP primary {s} s"),
            Fault::KillEtcd(i, s) => format!("SIGKILL etcd{i}, back after {s} s"),
            Fault::RollingUpgrade => {
                "rolling upgrade of the Tengen servers (a migration, then each server)".into()
            }
        }
    }
}

#[derive(Debug, Serialize)]
pub struct Trial {
    pub trial: u32,
    pub fault: String,
    pub fault_after_ms: u64,
    #[serde(flatten)]
    pub counts: Counts,
    /// The longest time Patroni's REST API named no primary during the trial.
    pub without_primary_ms: u64,
    /// Nodes that said they were the primary at the same moment, at most (1: never two).
    pub most_primaries: usize,
    /// From the fault to a primary with its synchronous standby and both servers serving.
    pub recovered_ms: u64,
    pub facts_checked: usize,
    pub lost: usize,
    pub integrity: String,
    #[serde(flatten)]
    pub public: PublicReads,
}

/// A reader of the public players list, on every server in turn, during a trial.
#[derive(Debug, Default, Serialize, Clone, Copy)]
pub struct PublicReads {
    /// Answered 200.
    pub public_ok: u64,
    /// Answered anything else (goal 0: the cached copy is served while there is no primary).
    pub public_failed: u64,
    /// Not answered (a server restarting in the rolling trial).
    pub public_no_answer: u64,
}

impl PublicReads {
    fn add(&mut self, o: &PublicReads) {
        self.public_ok += o.public_ok;
        self.public_failed += o.public_failed;
        self.public_no_answer += o.public_no_answer;
    }
}

/// Read `path` from each server in turn, every 50 ms, until `stop`.
fn read_public(servers: &[Http], path: &str, stop: &AtomicBool) -> (PublicReads, Vec<String>) {
    let (mut r, mut errs) = (PublicReads::default(), Vec::new());
    let mut i = 0;
    while !stop.load(Ordering::Relaxed) {
        match servers[i % servers.len()].get(path, "") {
            Ok(a) if a.status == 200 => r.public_ok += 1,
            Ok(a) => {
                r.public_failed += 1;
                errs.push(format!(
                    "public {path}: HTTP {}: {}",
                    a.status,
                    a.body.chars().take(200).collect::<String>()
                ));
            }
            Err(_) => r.public_no_answer += 1,
        }
        i += 1;
        std::thread::sleep(Duration::from_millis(50));
    }
    (r, errs)
}

#[derive(Debug, Serialize)]
pub struct Report {
    pub command: &'static str,
    pub ok: bool,
    pub seed: u64,
    pub trials: u32,
    pub clients: usize,
    pub servers: usize,
    pub topology: &'static str,
    pub writes: Vec<String>,
    pub acked: u64,
    pub acked_by_kind: BTreeMap<String, u64>,
    pub no_answer: u64,
    pub refused: u64,
    /// 503s: the documented answer while there is no primary to write to.
    pub unavailable: u64,
    /// 5xx other than the 503 (goal 0).
    pub server_errors: u64,
    pub integrity_failures: u32,
    /// Acknowledged writes not found (goal none).
    pub lost: Vec<String>,
    /// The longest time without a primary over all trials (goal ≤ 30 s).
    pub longest_without_primary_ms: u64,
    pub most_primaries: usize,
    /// The public players list read throughout (goal: no failed read).
    #[serde(flatten)]
    pub public: PublicReads,
    /// The first few 5xx answers and trial failures, for diagnosis.
    pub errors: Vec<String>,
    pub seconds: f64,
    pub dir: Option<String>,
    pub per_trial: Vec<Trial>,
}

pub fn run(a: &FailoverArgs) -> i32 {
    match failover(a) {
        Ok(report) => {
            let json = serde_json::to_string_pretty(&report).unwrap_or_default();
            match &a.report {
                Some(p) => {
                    if let Err(e) = std::fs::write(p, &json) {
                        eprintln!("tengen-lab stress: cannot write {}: {e}", p.display());
                        return 2;
                    }
                    eprintln!(
                        "stress failover: {} trials, {} acknowledged writes, {} lost, longest without a primary {} ms, \
                         {} 503, {} other 5xx, integrity {}, public reads {} ok {} failed; report in {}",
                        report.trials,
                        report.acked,
                        report.lost.len(),
                        report.longest_without_primary_ms,
                        report.unavailable,
                        report.server_errors,
                        if report.integrity_failures == 0 { "ok" } else { "FAILED" },
                        report.public.public_ok,
                        report.public.public_failed,
                        p.display()
                    );
                }
                None => println!("{json}"),
            }
            if report.ok {
                0
            } else {
                1
            }
        }
        Err(e) => {
            eprintln!("tengen-lab stress: {e}");
            2
        }
    }
}

/// The cluster, the two servers and the run's database address; dropped in that order's
/// reverse: servers first, then the cluster (its Drop kills every process it started).
struct Office {
    servers: Vec<Server>,
    cluster: HaCluster,
    store: Store,
    log: PathBuf,
    /// Rolling upgrades so far (each adds its own release's column).
    upgrades: u32,
}

impl Office {
    fn http(&self, i: usize) -> Http {
        Http { addr: self.servers[i % self.servers.len()].addr.clone() }
    }

    /// Every server answers `probe` with a 200 within `limit`.
    fn serving(&self, probe: &str, cookie: &str, limit: Duration) -> Result<(), String> {
        let deadline = Instant::now() + limit;
        for i in 0..self.servers.len() {
            loop {
                match self.http(i).get(probe, cookie) {
                    Ok(r) if r.status == 200 => break,
                    r if Instant::now() > deadline => {
                        let got = r.map(|r| format!("HTTP {}", r.status)).unwrap_or_else(|e| e);
                        return Err(format!("server {i} does not serve within {limit:?}: {got}"));
                    }
                    _ => std::thread::sleep(Duration::from_millis(100)),
                }
            }
        }
        Ok(())
    }

    /// A primary (waiting for one), as Patroni names it.
    fn primary(&self, limit: Duration) -> Result<usize, String> {
        let deadline = Instant::now() + limit;
        loop {
            if let Some(p) = self.cluster.primary() {
                return Ok(p);
            }
            if Instant::now() > deadline {
                return Err(format!("no primary within {limit:?}"));
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Do `fault`, and undo it: returns once what was killed is started again (not yet
    /// caught up).
    fn inflict(&mut self, fault: Fault) -> Result<(), String> {
        match fault {
            Fault::KillPrimary => {
                let p = self.primary(Duration::from_secs(30))?;
                self.cluster.nodes[p].kill();
                // The other node takes over first; then this one rejoins as its standby.
                let deadline = Instant::now() + Duration::from_secs(60);
                while self.cluster.primary().is_none_or(|q| q == p) && Instant::now() < deadline {
                    std::thread::sleep(Duration::from_millis(100));
                }
                self.cluster.restart_node(p)
            }
            Fault::FreezePrimary(s) => {
                let p = self.primary(Duration::from_secs(30))?;
                let frozen = self.cluster.nodes[p].freeze();
                std::thread::sleep(Duration::from_secs(s));
                crate::ha_cluster::Node::thaw(&frozen);
                Ok(())
            }
            Fault::KillEtcd(i, s) => {
                self.cluster.etcd[i].kill();
                std::thread::sleep(Duration::from_secs(s));
                self.cluster.restart_etcd(i)
            }
            Fault::RollingUpgrade => {
                // What a server of the next release does first at its start: its migration,
                // under the lock every starting server takes (`apply_under_migration_lock`),
                // additive as the one-release rule asks, while this release's servers write.
                self.upgrades += 1;
                let column = format!("next_release_{}", self.upgrades);
                self.store
                    .upgrade(&format!("ALTER TABLE entrants ADD COLUMN IF NOT EXISTS {column} TEXT"))?;
                let added = self.store.i64(&format!(
                    "SELECT COUNT(*) FROM information_schema.columns \
                     WHERE table_name = 'entrants' AND column_name = '{column}'"
                ))?;
                if added != 1 {
                    return Err(format!("the upgrade's column {column} is not in the schema"));
                }
                for i in 0..self.servers.len() {
                    // The new process takes over before the old one is gone from the address
                    // book: started first, then the old one stopped.
                    let next = Server::start(&self.store.address(), &self.log)?;
                    let mut old = std::mem::replace(&mut self.servers[i], next);
                    old.kill();
                }
                Ok(())
            }
        }
    }
}

/// Polls Patroni's REST API every 100 ms until `stop`: the longest stretch without a primary
/// (ms) and the most nodes that said they were the primary at once.
fn watch_primary(ports: &[u16], stop: &AtomicBool) -> (u64, usize) {
    let mut since: Option<Instant> = None;
    let (mut longest, mut most) = (Duration::ZERO, 0);
    while !stop.load(Ordering::Relaxed) {
        let now = Instant::now();
        let primaries = ports
            .iter()
            .filter(|p| {
                crate::ha_cluster::http_status(**p, "/primary", Duration::from_millis(300)) == Some(200)
            })
            .count();
        most = most.max(primaries);
        match (primaries, since) {
            (0, None) => since = Some(now),
            (0, Some(_)) => {}
            (_, Some(t)) => {
                longest = longest.max(now - t);
                since = None;
            }
            (_, None) => {}
        }
        std::thread::sleep(Duration::from_millis(100).saturating_sub(now.elapsed()));
    }
    if let Some(t) = since {
        longest = longest.max(t.elapsed());
    }
    (longest.as_millis() as u64, most)
}

/// What lasts across trials.
struct Run {
    kinds: Vec<Box<dyn WriteKind>>,
    shared: stress::Shared,
    sessions: Vec<stress::Session>,
    states: Vec<ClientState>,
    facts: BTreeMap<String, Fact>,
    total: Counts,
    lost: Vec<String>,
    errors: Vec<String>,
    integrity_failures: u32,
    longest: u64,
    most_primaries: usize,
    public: PublicReads,
}

fn trial(office: &mut Office, run: &mut Run, t: u32, rng: &mut ChaCha8Rng, a: &FailoverArgs) -> Trial {
    let fault = Fault::pick(rng, t, &a.faults, a.max_freeze_s);
    let fault_after = stress::pick(rng, a.min_fault_ms, a.max_fault_ms);
    let probe = format!("/t/{}/entrants", run.shared.tid);
    let stop = AtomicBool::new(false);
    let stop_watch = AtomicBool::new(false);
    // Every 503 in this run is the documented answer of an office between two primaries.
    let unavailable_is_expected = AtomicBool::new(true);
    let https: Vec<Http> = (0..run.states.len()).map(|i| office.http(i)).collect();
    let ports: Vec<u16> = office.cluster.nodes.iter().map(|n| n.rest_port).collect();
    let (seed, kinds, shared, sessions) = (a.seed, &run.kinds[..], &run.shared, &run.sessions);
    let mut outcome: Result<u64, String> = Ok(0);
    let public_path = format!("/t/{}/players", run.shared.tid);
    let (results, (gap, most), (public, public_errors)) = std::thread::scope(|scope| {
        let watcher = scope.spawn(|| watch_primary(&ports, &stop_watch));
        let reader = scope.spawn(|| read_public(&https, &public_path, &stop_watch));
        let handles: Vec<_> = run
            .states
            .iter_mut()
            .zip(sessions.iter())
            .zip(&https)
            .map(|((st, sess), http)| {
                let flags = (&stop, &unavailable_is_expected);
                let seed = seed ^ (u64::from(t) << 32) ^ (st.client as u64 + 1) ^ 0xfa11;
                scope.spawn(move || stress::client_loop(http, sess, shared, st, kinds, flags, seed))
            })
            .collect();
        std::thread::sleep(Duration::from_millis(fault_after));
        let t0 = Instant::now();
        outcome = office
            .inflict(fault)
            .and_then(|()| office.cluster.wait_healthy(Duration::from_secs(120)))
            .and_then(|()| office.serving(&probe, &sessions[0].cookie, Duration::from_secs(30)))
            .map(|()| t0.elapsed().as_millis() as u64);
        // A moment of writing on the healed office, then the check.
        std::thread::sleep(Duration::from_millis(500));
        stop.store(true, Ordering::Relaxed);
        let results: Vec<stress::ClientRun> =
            handles.into_iter().map(|h| h.join().unwrap_or_default()).collect();
        stop_watch.store(true, Ordering::Relaxed);
        let read = reader.join().unwrap_or_default();
        (results, watcher.join().unwrap_or((u64::MAX, 0)), read)
    });
    run.errors.extend(public_errors.into_iter().map(|e| format!("trial {t}: {e}")));
    run.public.add(&public);
    let mut counts = Counts::default();
    let mut fresh = BTreeMap::new();
    for (c, f, e) in results {
        counts.add(&c);
        for fact in &f {
            stress::note_fact(&mut run.facts, fact);
            stress::note_fact(&mut fresh, fact);
        }
        run.errors.extend(e.into_iter().map(|e| format!("trial {t}: {e}")));
    }
    let recovered_ms = match outcome {
        Ok(ms) => ms,
        Err(e) => {
            run.errors.push(format!("trial {t} ({}): {e}", fault.name()));
            counts.server_errors += 1;
            0
        }
    };
    // Every trial checks all that was ever acknowledged: a failover must not lose old writes
    // either (a standby promoted without them would).
    let lost = match office.store.lost(&run.facts) {
        Ok(l) => l,
        Err(e) => vec![format!("the check itself failed: {e}")],
    };
    let integrity = match office.cluster.primary() {
        Some(p) => office.cluster.amcheck(p).unwrap_or_else(|e| e),
        None => "no primary to check".into(),
    };
    if integrity != "ok" {
        run.integrity_failures += 1;
    }
    run.longest = run.longest.max(gap);
    run.most_primaries = run.most_primaries.max(most);
    run.total.add(&counts);
    let row = Trial {
        trial: t,
        fault: fault.name(),
        fault_after_ms: fault_after,
        counts,
        without_primary_ms: gap,
        most_primaries: most,
        recovered_ms,
        facts_checked: run.facts.len(),
        lost: lost.len(),
        integrity,
        public,
    };
    run.lost.extend(lost.into_iter().map(|l| format!("trial {t}: {l}")));
    eprintln!(
        "trial {t}: {}: {} acknowledged, {} 503, {} other 5xx, {} ms without a primary, recovered in {} ms, {} lost, integrity {}, public reads {} ok {} failed",
        row.fault,
        row.counts.acked,
        row.counts.unavailable,
        row.counts.server_errors,
        row.without_primary_ms,
        row.recovered_ms,
        row.lost,
        row.integrity,
        row.public.public_ok,
        row.public.public_failed
    );
    row
}

pub fn failover(a: &FailoverArgs) -> Result<Report, String> {
    let started = Instant::now();
    if !cfg!(feature = "postgres") {
        return Err(admin::db::backend::NO_POSTGRES.into());
    }
    let kinds: Vec<Box<dyn WriteKind>> = a
        .writes
        .iter()
        .map(|w| stress::kind(w).ok_or(format!("unknown write kind {w:?}")))
        .collect::<Result<_, _>>()?;
    if let Some(f) = a.faults.iter().find(|f| !Fault::KINDS.contains(&f.trim())) {
        return Err(format!("unknown fault {f:?}"));
    }
    if kinds.is_empty() || a.faults.is_empty() || a.clients == 0 || a.max_fault_ms < a.min_fault_ms {
        return Err("need at least one write kind, one client and --min-fault-ms <= --max-fault-ms".into());
    }
    let bin = a.pg_bin.clone().unwrap_or_else(crate::pg_cluster::default_bin);
    let dir = tempfile::Builder::new().prefix("tengen-failover-").tempdir().map_err(|e| e.to_string())?;
    let kept = |dir: tempfile::TempDir, e: String| {
        if a.keep {
            format!("{e} (logs kept in {})", dir.keep().display())
        } else {
            e
        }
    };
    let office = open(&bin, dir.path(), a, kinds);
    let (mut office, mut run) = match office {
        Ok(o) => o,
        Err(e) => return Err(kept(dir, e)),
    };
    let mut rng = ChaCha8Rng::seed_from_u64(a.seed);
    let mut per_trial = Vec::new();
    for t in 1..=a.trials {
        per_trial.push(trial(&mut office, &mut run, t, &mut rng, a));
    }
    drop(office);
    run.errors.truncate(20);
    let tot = &run.total;
    let ok = run.lost.is_empty()
        && run.integrity_failures == 0
        && tot.server_errors == 0
        && tot.acked > 0
        && run.longest <= PRIMARY_GAP_GOAL.as_millis() as u64
        && run.most_primaries <= 1
        && run.public.public_failed == 0;
    Ok(Report {
        command: "stress failover",
        ok,
        seed: a.seed,
        trials: a.trials,
        clients: a.clients,
        servers: 2,
        topology:
            "3 etcd members, 2 PostgreSQL nodes under Patroni (synchronous_mode_strict), 2 Tengen servers",
        writes: run.kinds.iter().map(|k| k.name().to_string()).collect(),
        acked: tot.acked,
        acked_by_kind: tot.acked_by_kind.clone(),
        no_answer: tot.no_answer,
        refused: tot.refused,
        unavailable: tot.unavailable,
        server_errors: tot.server_errors,
        integrity_failures: run.integrity_failures,
        lost: run.lost,
        longest_without_primary_ms: run.longest,
        most_primaries: run.most_primaries,
        public: run.public,
        errors: run.errors,
        seconds: started.elapsed().as_secs_f64(),
        dir: a.keep.then(|| dir.keep().display().to_string()),
        per_trial,
    })
}

/// The cluster, the tournament and accounts (through the first server), then the second
/// server.
fn open(
    bin: &Path,
    dir: &Path,
    a: &FailoverArgs,
    kinds: Vec<Box<dyn WriteKind>>,
) -> Result<(Office, Run), String> {
    let cluster = HaCluster::create(bin, dir)?;
    let store = Store::Remote { url: cluster.url() };
    let log = dir.join("server.log");
    let first = Server::start(&store.address(), &log)?;
    let mut office = Office { servers: vec![first], cluster, store, log, upgrades: 0 };
    let needs_games = a.writes.iter().any(|w| matches!(w.trim(), "result-entry" | "ruling-add"));
    let games = if needs_games { a.games } else { 0 };
    let (shared, sessions) =
        stress::set_up(&office.http(0), &office.servers[0], &office.store, a.clients, games)?;
    office.servers.push(Server::start(&office.store.address(), &office.log)?);
    let run = Run {
        kinds,
        shared,
        sessions,
        states: (0..a.clients).map(ClientState::new).collect(),
        facts: BTreeMap::new(),
        total: Counts::default(),
        lost: Vec::new(),
        errors: Vec::new(),
        integrity_failures: 0,
        longest: 0,
        most_primaries: 0,
        public: PublicReads::default(),
    };
    Ok((office, run))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_four_trials_are_one_of_each_fault() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let all: Vec<String> = Fault::KINDS.iter().map(|k| k.to_string()).collect();
        let f: Vec<Fault> = (1..=4).map(|t| Fault::pick(&mut rng, t, &all, 16)).collect();
        assert_eq!(f[0], Fault::KillPrimary);
        assert!(matches!(f[1], Fault::FreezePrimary(s) if (2..=16).contains(&s)), "{f:?}");
        assert!(matches!(f[2], Fault::KillEtcd(i, s) if i < 3 && (1..=5).contains(&s)), "{f:?}");
        assert_eq!(f[3], Fault::RollingUpgrade);
    }
}
