//! A throwaway high-availability PostgreSQL for `tengen-lab stress failover`: three etcd
//! members and two PostgreSQL nodes managed by Patroni (synchronous replication, strict), all
//! on 127.0.0.1, in a temporary directory, with the programs of Debian's packages (`etcd`
//! from etcd-server, `patroni`, PostgreSQL's server programs). The run kills, freezes and
//! restarts them; everything started here is killed when the cluster is dropped (also on a
//! panic), so no process outlives the run.
//!
//! As root (CI), Patroni and its PostgreSQL run as the `postgres` account through `setpriv`,
//! as [`crate::pg_cluster`] runs `initdb` and `postgres`; etcd runs as the caller.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The role Tengen and the run use (PostgreSQL's superuser in the lab; trust on 127.0.0.1).
pub const ROLE: &str = "tengen";

/// The database the Tengen servers use.
pub const DATABASE: &str = "tengen";

/// The Patroni scope (the cluster's name in etcd).
const SCOPE: &str = "tengen-lab";

/// How long a Patroni leader key lives without being renewed: a primary that stops renewing
/// (killed, frozen, cut off) is replaced after at most this long, plus one loop.
pub const TTL_S: u64 = 10;

/// How long the cluster must stay healthy before the next fault.
pub const SETTLED: Duration = Duration::from_secs(6);

/// The settings every node starts with, shown in docs/operating.md: the `bootstrap.dcs` part
/// is the cluster's dynamic configuration (in etcd, `patronictl edit-config` changes it).
pub fn patroni_yaml(node: &Node, etcd_hosts: &str, bin: &Path, dir: &Path) -> String {
    format!(
        "scope: {SCOPE}
name: {name}
restapi:
  listen: 127.0.0.1:{rest}
  connect_address: 127.0.0.1:{rest}
etcd3:
  hosts: {etcd_hosts}
bootstrap:
  dcs:
    ttl: {TTL_S}
    loop_wait: 1
    retry_timeout: 3
    maximum_lag_on_failover: 1048576
    synchronous_mode: true
    synchronous_mode_strict: true
    postgresql:
      use_pg_rewind: true
      use_slots: true
      parameters:
        synchronous_commit: 'on'
        wal_level: replica
        hot_standby: 'on'
        wal_log_hints: 'on'
        max_wal_senders: 10
        max_replication_slots: 10
        max_connections: 100
  initdb:
  - encoding: UTF8
  - locale: C.UTF-8
postgresql:
  listen: 127.0.0.1:{pg}
  connect_address: 127.0.0.1:{pg}
  data_dir: {data}
  bin_dir: {bin}
  pgpass: {pgpass}
  remove_data_directory_on_rewind_failure: true
  remove_data_directory_on_diverged_timelines: true
  pg_hba:
  - local all all trust
  - host all all 127.0.0.1/32 trust
  - host replication replicator 127.0.0.1/32 trust
  authentication:
    superuser:
      username: {ROLE}
    replication:
      username: replicator
    rewind:
      username: {ROLE}
  parameters:
    unix_socket_directories: '{sock}'
",
        name = node.name,
        rest = node.rest_port,
        pg = node.pg_port,
        data = node.data.display(),
        bin = bin.display(),
        pgpass = dir.join(format!("{}.pgpass", node.name)).display(),
        sock = dir.display(),
    )
}

/// One PostgreSQL node and its Patroni.
pub struct Node {
    pub name: String,
    pub pg_port: u16,
    pub rest_port: u16,
    data: PathBuf,
    config: PathBuf,
    log: PathBuf,
    patroni: Option<Child>,
}

/// One etcd member.
pub struct Etcd {
    pub name: String,
    pub client_port: u16,
    peer_port: u16,
    data: PathBuf,
    log: PathBuf,
    child: Option<Child>,
}

/// Three etcd members and two Patroni nodes of this process's own.
pub struct HaCluster {
    pub dir: PathBuf,
    pub bin: PathBuf,
    run_as: Option<&'static str>,
    pub etcd: Vec<Etcd>,
    pub nodes: Vec<Node>,
}

/// What is missing on this machine for the run, if anything (the Debian packages to install).
pub fn missing_programs(bin: &Path) -> Option<String> {
    let on_path = |p: &str| {
        std::env::var_os("PATH").is_some_and(|path| std::env::split_paths(&path).any(|d| d.join(p).is_file()))
    };
    let mut missing = Vec::new();
    if !on_path("etcd") {
        missing.push("etcd (apt-get install etcd-server)");
    }
    if !on_path("patroni") {
        missing.push("patroni (apt-get install patroni)");
    }
    if !bin.join("postgres").is_file() {
        missing.push("PostgreSQL's server programs (apt-get install postgresql)");
    }
    (!missing.is_empty()).then(|| missing.join(", "))
}

/// Ports nobody holds, below the kernel's ephemeral range (see `pg_cluster::free_port`), none
/// given twice.
fn free_ports(n: usize) -> Result<Vec<u16>, String> {
    let from = 20_000 + ((std::process::id() * 7) % 10_000) as u16;
    let ports: Vec<u16> = (from..32_000)
        .chain(20_000..from)
        .filter(|p| std::net::TcpListener::bind(("127.0.0.1", *p)).is_ok())
        .take(n)
        .collect();
    if ports.len() == n {
        Ok(ports)
    } else {
        Err(format!("{n} free ports: not in 20000-31999"))
    }
}

/// A GET on 127.0.0.1:`port` answered within `wait`: its status (None: no answer).
pub fn http_status(port: u16, path: &str, wait: Duration) -> Option<u16> {
    use std::io::{Read, Write};
    let addr = std::net::SocketAddr::from(([127, 0, 0, 1], port));
    let mut tcp = std::net::TcpStream::connect_timeout(&addr, wait).ok()?;
    tcp.set_read_timeout(Some(wait)).ok()?;
    tcp.set_write_timeout(Some(wait)).ok()?;
    write!(tcp, "GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n").ok()?;
    // The whole answer (closing early makes Patroni log a reset connection).
    let mut answer = Vec::new();
    let _ = tcp.read_to_end(&mut answer);
    String::from_utf8_lossy(&answer).split_whitespace().nth(1)?.parse().ok()
}

fn is_root() -> bool {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata("/proc/self").map(|m| m.uid() == 0).unwrap_or(false)
}

fn signal(sig: &str, pids: &[u32]) {
    if !pids.is_empty() {
        // Some may be gone already (a backend that exited): not worth a word.
        let _ = Command::new("kill")
            .arg(format!("-{sig}"))
            .args(pids.iter().map(u32::to_string))
            .stderr(Stdio::null())
            .status();
    }
}

/// Processes whose parent is `pid` (from /proc), and theirs.
fn descendants(pid: u32) -> Vec<u32> {
    let Ok(dir) = std::fs::read_dir("/proc") else { return Vec::new() };
    let parent_of = |p: u32| {
        std::fs::read_to_string(format!("/proc/{p}/stat"))
            .ok()
            .and_then(|s| s.rsplit(')').next()?.split_whitespace().nth(1)?.parse::<u32>().ok())
    };
    let all: Vec<u32> = dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok()).collect();
    let mut out = Vec::new();
    let mut frontier = vec![pid];
    while let Some(p) = frontier.pop() {
        for &c in &all {
            if parent_of(c) == Some(p) && !out.contains(&c) {
                out.push(c);
                frontier.push(c);
            }
        }
    }
    out
}

fn log_file(p: &Path) -> Result<std::fs::File, String> {
    std::fs::OpenOptions::new().create(true).append(true).open(p).map_err(|e| format!("{}: {e}", p.display()))
}

impl Etcd {
    fn start(&mut self, cluster: &str) -> Result<(), String> {
        let c = |p: u16| format!("http://127.0.0.1:{p}");
        let child = Command::new("etcd")
            .args(["--name", &self.name, "--data-dir"])
            .arg(&self.data)
            .args([
                "--listen-client-urls",
                &c(self.client_port),
                "--advertise-client-urls",
                &c(self.client_port),
            ])
            .args([
                "--listen-peer-urls",
                &c(self.peer_port),
                "--initial-advertise-peer-urls",
                &c(self.peer_port),
            ])
            .args(["--initial-cluster", cluster, "--initial-cluster-state", "new"])
            .args([
                "--initial-cluster-token",
                SCOPE,
                "--heartbeat-interval",
                "100",
                "--election-timeout",
                "1000",
            ])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::from(log_file(&self.log)?))
            .spawn()
            .map_err(|e| format!("start etcd: {e}"))?;
        self.child = Some(child);
        Ok(())
    }

    /// SIGKILL the member.
    pub fn kill(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

impl Node {
    fn start(&mut self, run_as: Option<&str>) -> Result<(), String> {
        let mut c = match run_as {
            Some(user) => {
                let mut c = Command::new("setpriv");
                c.args(["--reuid", user, "--regid", user, "--init-groups", "--", "patroni"]);
                c
            }
            None => Command::new("patroni"),
        };
        let child = c
            .arg(&self.config)
            .env("LC_ALL", "C.UTF-8")
            .stdin(Stdio::null())
            .stdout(Stdio::from(log_file(&self.log)?))
            .stderr(Stdio::from(log_file(&self.log)?))
            .spawn()
            .map_err(|e| format!("start patroni: {e}"))?;
        self.patroni = Some(child);
        Ok(())
    }

    /// The postmaster's pid, from `postmaster.pid`.
    fn postmaster(&self) -> Option<u32> {
        let text = std::fs::read_to_string(self.data.join("postmaster.pid")).ok()?;
        text.lines().next()?.trim().parse().ok()
    }

    /// Patroni, the postmaster and every process under them.
    fn processes(&self) -> Vec<u32> {
        let mut pids = Vec::new();
        if let Some(p) = self.patroni.as_ref().map(Child::id) {
            pids.push(p);
            pids.extend(descendants(p));
        }
        if let Some(pm) = self.postmaster().filter(|p| Path::new(&format!("/proc/{p}")).exists()) {
            if !pids.contains(&pm) {
                pids.push(pm);
                pids.extend(descendants(pm).into_iter().filter(|p| !pids.contains(p)).collect::<Vec<_>>());
            }
        }
        pids
    }

    /// SIGKILL Patroni and its PostgreSQL at once (stopped first, so none forks meanwhile), as
    /// a power cut would leave the machine.
    pub fn kill(&mut self) {
        let seen = self.stop_all();
        signal("KILL", &seen);
        if let Some(mut c) = self.patroni.take() {
            let _ = c.wait();
        }
        let deadline = Instant::now() + Duration::from_secs(5);
        while seen.iter().any(|p| Path::new(&format!("/proc/{p}")).exists()) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// SIGSTOP Patroni and its PostgreSQL (a machine frozen, or cut off, seen from outside);
    /// the processes stopped, for [`Node::thaw`].
    pub fn freeze(&self) -> Vec<u32> {
        self.stop_all()
    }

    /// SIGSTOP every process of the node, looking twice (one forked between the listing and
    /// the signal is stopped the second time); the processes stopped.
    fn stop_all(&self) -> Vec<u32> {
        let mut seen: Vec<u32> = Vec::new();
        for _ in 0..2 {
            let now: Vec<u32> = self.processes().into_iter().filter(|p| !seen.contains(p)).collect();
            signal("STOP", &now);
            seen.extend(now);
        }
        seen
    }

    pub fn thaw(pids: &[u32]) {
        signal("CONT", pids);
    }

    /// Patroni's REST API says this node is the primary (within 300 ms).
    pub fn is_primary(&self) -> bool {
        http_status(self.rest_port, "/primary", Duration::from_millis(300)) == Some(200)
    }

    /// Patroni's REST API says this node is the synchronous standby.
    pub fn is_sync_standby(&self) -> bool {
        http_status(self.rest_port, "/sync", Duration::from_millis(300)) == Some(200)
    }
}

impl HaCluster {
    /// Start three etcd members and two Patroni nodes in `dir`; returns once node 0 is the
    /// primary, database [`DATABASE`] exists and node 1 is its synchronous standby.
    pub fn create(bin: &Path, dir: &Path) -> Result<HaCluster, String> {
        if let Some(m) = missing_programs(bin) {
            return Err(format!("missing: {m}"));
        }
        let run_as = is_root().then_some("postgres");
        let ports = free_ports(10)?;
        let mut c = HaCluster {
            dir: dir.to_path_buf(),
            bin: bin.to_path_buf(),
            run_as,
            etcd: Vec::new(),
            nodes: Vec::new(),
        };
        for i in 0..3 {
            c.etcd.push(Etcd {
                name: format!("etcd{i}"),
                client_port: ports[2 * i],
                peer_port: ports[2 * i + 1],
                data: dir.join(format!("etcd{i}")),
                log: dir.join(format!("etcd{i}.log")),
                child: None,
            });
        }
        let cluster = c.initial_cluster();
        for e in &mut c.etcd {
            e.start(&cluster)?;
        }
        c.wait_etcd()?;
        if let Some(user) = run_as {
            // The account owns the directory: Patroni makes the data directories, the socket
            // and the password files there (root, running etcd, writes anywhere).
            std::fs::set_permissions(dir, std::os::unix::fs::PermissionsExt::from_mode(0o755))
                .map_err(|e| format!("{}: {e}", dir.display()))?;
            let out = Command::new("chown").arg(format!("{user}:")).arg(dir).output();
            if !out.as_ref().is_ok_and(|o| o.status.success()) {
                return Err(format!("chown {user}: {}: {out:?}", dir.display()));
            }
        }
        let hosts = c.etcd_hosts();
        for i in 0..2 {
            let node = Node {
                name: format!("pg{i}"),
                pg_port: ports[6 + 2 * i],
                rest_port: ports[7 + 2 * i],
                data: dir.join(format!("pg{i}")),
                config: dir.join(format!("pg{i}.yml")),
                log: dir.join(format!("pg{i}.log")),
                patroni: None,
            };
            std::fs::write(&node.config, patroni_yaml(&node, &hosts, bin, dir))
                .map_err(|e| format!("{}: {e}", node.config.display()))?;
            c.nodes.push(node);
        }
        c.nodes[0].start(run_as)?;
        c.wait(Duration::from_secs(90), "node pg0 to become the primary", |c| c.nodes[0].is_primary())?;
        // Strict synchronous mode: no commit (not even CREATE DATABASE) before a standby is.
        c.nodes[1].start(run_as)?;
        c.wait_healthy(Duration::from_secs(120))?;
        let port = c.nodes[0].pg_port.to_string();
        let out = Command::new(bin.join("createdb"))
            .args(["-h", "127.0.0.1", "-p", &port, "-U", ROLE, DATABASE])
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("createdb: {e}"))?;
        if !out.status.success() {
            return Err(format!("createdb: {}", String::from_utf8_lossy(&out.stderr).trim()));
        }
        Ok(c)
    }

    fn initial_cluster(&self) -> String {
        let m: Vec<String> =
            self.etcd.iter().map(|e| format!("{}=http://127.0.0.1:{}", e.name, e.peer_port)).collect();
        m.join(",")
    }

    fn etcd_hosts(&self) -> String {
        let h: Vec<String> = self.etcd.iter().map(|e| format!("127.0.0.1:{}", e.client_port)).collect();
        h.join(",")
    }

    fn wait_etcd(&self) -> Result<(), String> {
        self.wait(Duration::from_secs(30), "every etcd member to be healthy", |c| {
            c.etcd
                .iter()
                .all(|e| http_status(e.client_port, "/health", Duration::from_millis(500)) == Some(200))
        })
    }

    fn wait(&self, limit: Duration, what: &str, ok: impl Fn(&HaCluster) -> bool) -> Result<(), String> {
        let deadline = Instant::now() + limit;
        while Instant::now() < deadline {
            if ok(self) {
                return Ok(());
            }
            std::thread::sleep(Duration::from_millis(200));
        }
        Err(format!("waited {limit:?} for {what}; logs in {}", self.dir.display()))
    }

    /// The Tengen servers' address: both nodes, the read-write one chosen by libpq.
    pub fn url(&self) -> String {
        let hosts: Vec<String> = self.nodes.iter().map(|n| format!("127.0.0.1:{}", n.pg_port)).collect();
        format!("postgres://{ROLE}@{}/{DATABASE}?target_session_attrs=read-write", hosts.join(","))
    }

    /// The node Patroni's REST API names the primary, if one does.
    pub fn primary(&self) -> Option<usize> {
        self.nodes.iter().position(Node::is_primary)
    }

    /// Every etcd member healthy, one primary, and the other node its synchronous standby as
    /// Patroni names it and as the primary sees it (streaming, `sync` in
    /// `pg_stat_replication`): a commit now reaches two machines.
    pub fn healthy(&self) -> bool {
        self.etcd
            .iter()
            .all(|e| http_status(e.client_port, "/health", Duration::from_millis(500)) == Some(200))
            && self.nodes.iter().any(Node::is_sync_standby)
            && self.primary().is_some_and(|p| self.streaming_sync_standbys(p) == Some(1))
    }

    /// The standbys streaming synchronously from node `p`, as its `pg_stat_replication` says.
    fn streaming_sync_standbys(&self, p: usize) -> Option<u32> {
        let out = Command::new(self.bin.join("psql"))
            .args(["-h", "127.0.0.1", "-p", &self.nodes[p].pg_port.to_string(), "-U", ROLE, "-d", "postgres"])
            .args([
                "-tAc",
                "SELECT count(*) FROM pg_stat_replication WHERE state = 'streaming' AND sync_state = 'sync'",
            ])
            .env("PGCONNECT_TIMEOUT", "2")
            .stdin(Stdio::null())
            .stderr(Stdio::null())
            .output()
            .ok()?;
        String::from_utf8_lossy(&out.stdout).trim().parse().ok()
    }

    /// Wait until the cluster is [`HaCluster::healthy`] for [`SETTLED`] without a break: a node
    /// that rejoins may be named the synchronous standby for a moment, then rewind or copy its
    /// data again before it streams for good. Patroni promotes only a synchronous standby, so a
    /// primary lost before then would be a second fault, not one machine lost.
    pub fn wait_healthy(&self, limit: Duration) -> Result<(), String> {
        let since = std::cell::Cell::new(None::<Instant>);
        self.wait(limit, "a primary with its synchronous standby and three healthy etcd members", |c| {
            if !c.healthy() {
                since.set(None);
                return false;
            }
            let t = since.get().unwrap_or_else(Instant::now);
            since.set(Some(t));
            t.elapsed() >= SETTLED
        })
    }

    /// Start node `i`'s Patroni again (after [`Node::kill`]): it rejoins as a standby.
    pub fn restart_node(&mut self, i: usize) -> Result<(), String> {
        self.nodes[i].start(self.run_as)
    }

    /// Start etcd member `i` again on its data (after [`Etcd::kill`]).
    pub fn restart_etcd(&mut self, i: usize) -> Result<(), String> {
        let cluster = self.initial_cluster();
        self.etcd[i].start(&cluster)
    }

    /// `pg_amcheck` of [`DATABASE`] on node `i` ("ok", or what it found).
    pub fn amcheck(&self, i: usize) -> Result<String, String> {
        crate::pg_cluster::amcheck_at(&self.bin, self.nodes[i].pg_port, ROLE, DATABASE)
    }
}

impl Drop for HaCluster {
    fn drop(&mut self) {
        for n in &mut self.nodes {
            // A frozen node is thawed by the kill (SIGKILL ends a stopped process too).
            n.kill();
        }
        for e in &mut self.etcd {
            e.kill();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_settings_are_synchronous_and_strict_on_loopback() {
        let n = Node {
            name: "pg0".into(),
            pg_port: 25001,
            rest_port: 25002,
            data: "/tmp/x/pg0".into(),
            config: "/tmp/x/pg0.yml".into(),
            log: "/tmp/x/pg0.log".into(),
            patroni: None,
        };
        let y = patroni_yaml(&n, "127.0.0.1:1,127.0.0.1:2,127.0.0.1:3", Path::new("/b"), Path::new("/tmp/x"));
        for want in [
            "synchronous_mode: true",
            "synchronous_mode_strict: true",
            "synchronous_commit: 'on'",
            "listen: 127.0.0.1:25001",
            "listen: 127.0.0.1:25002",
            "hosts: 127.0.0.1:1,127.0.0.1:2,127.0.0.1:3",
        ] {
            assert!(y.contains(want), "{want} in\n{y}");
        }
        assert!(!y.contains("0.0.0.0"), "loopback only");
    }

    #[test]
    fn the_free_ports_are_distinct() {
        let p = free_ports(10).unwrap();
        let mut q = p.clone();
        q.sort_unstable();
        q.dedup();
        assert_eq!(q.len(), 10);
    }
}
