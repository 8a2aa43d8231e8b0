//! A throwaway PostgreSQL server for `tengen-lab stress crash --postgres`: its
//! own data directory in a temporary directory, its own port on 127.0.0.1, trust
//! authentication for one role, so that the stress run can kill the database server itself
//! (SIGKILL to the postmaster and every backend, as a power cut would leave them) and start it
//! again on the same files.
//!
//! The programs are Debian's (`initdb`, `postgres`, `pg_isready` from `--pg-bin`, by default
//! `pg_config --bindir`). PostgreSQL refuses to run as root; run as root (CI), the cluster
//! belongs to the `postgres` account and its programs run through `setpriv`, which changes
//! the account and executes the program in place (`runuser` would fork, and a postmaster
//! killed under it could stay a zombie whose pid in `postmaster.pid` keeps the next start
//! from taking the data directory).

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The role the cluster trusts (no password; the server listens on 127.0.0.1 only).
const ROLE: &str = "tengen";

/// A PostgreSQL server of this process's own.
pub struct PgCluster {
    bin: PathBuf,
    data: PathBuf,
    port: u16,
    /// Run the programs as this account (`Some("postgres")` when this process is root).
    run_as: Option<&'static str>,
    child: Option<Child>,
}

/// Where Debian keeps the server programs: `pg_config --bindir`, else PostgreSQL 15's path.
pub fn default_bin() -> PathBuf {
    Command::new("pg_config")
        .arg("--bindir")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()))
        .unwrap_or_else(|| PathBuf::from("/usr/lib/postgresql/15/bin"))
}

fn is_root() -> bool {
    std::fs::metadata("/proc/self").map(|m| m.uid() == 0).unwrap_or(false)
}

/// A port nobody holds, below the kernel's ephemeral range (32768 up). The server is killed
/// and started again on its port; in that range a client socket of the run itself could take
/// the port meanwhile, and the restart would fail with "Address already in use".
fn free_port() -> Result<u16, String> {
    let from = 20_000 + (std::process::id() % 10_000) as u16;
    (from..32_000)
        .chain(20_000..from)
        .find(|p| std::net::TcpListener::bind(("127.0.0.1", *p)).is_ok())
        .ok_or_else(|| "a free port: none in 20000-31999".to_string())
}

impl PgCluster {
    /// `initdb` a new cluster in `dir/pg` (which must not exist) and start it.
    pub fn create(bin: &Path, dir: &Path) -> Result<PgCluster, String> {
        let initdb = bin.join("initdb");
        if !initdb.is_file() {
            return Err(format!(
                "{}: PostgreSQL's server programs are missing (Debian: apt-get install postgresql; or --pg-bin DIR)",
                initdb.display()
            ));
        }
        let run_as = is_root().then_some("postgres");
        if run_as.is_some() {
            // The account must reach the directory and own its own.
            std::fs::set_permissions(dir, std::os::unix::fs::PermissionsExt::from_mode(0o755))
                .map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        let data = dir.join("pg");
        let mut c = PgCluster { bin: bin.to_path_buf(), data, port: free_port()?, run_as, child: None };
        std::fs::create_dir(&c.data).map_err(|e| format!("{}: {e}", c.data.display()))?;
        if let Some(user) = run_as {
            run(Command::new("chown").arg(format!("{user}:")).arg(&c.data))?;
        }
        let data = c.data.display().to_string();
        run(c.command("initdb").args(["-D", &data, "-U", ROLE, "-A", "trust", "-E", "UTF8", "--no-sync"]))?;
        c.start()?;
        Ok(c)
    }

    /// A program of the cluster, run as its account (the same process: see the module doc), in
    /// the C.UTF-8 locale that every Debian has: the caller's locale (`zh_CN.UTF-8`, say) may
    /// not be generated on the machine, and `initdb` then refuses to make the cluster. The
    /// throwaway cluster's collation does not matter: Tengen sorts text itself.
    fn command(&self, program: &str) -> Command {
        let exe = self.bin.join(program);
        let mut c = match self.run_as {
            Some(user) => {
                let mut c = Command::new("setpriv");
                c.args(["--reuid", user, "--regid", user, "--init-groups", "--"]).arg(exe);
                c
            }
            None => Command::new(exe),
        };
        c.env("LC_ALL", "C.UTF-8");
        c
    }

    /// Start the server on the data directory and wait until it takes connections (after a
    /// kill, that includes its crash recovery).
    pub fn start(&mut self) -> Result<(), String> {
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.data.with_extension("log"))
            .map_err(|e| e.to_string())?;
        let data = self.data.display().to_string();
        let port = self.port.to_string();
        let child = self
            .command("postgres")
            .args(["-D", &data, "-p", &port, "-k", &data, "-c", "listen_addresses=127.0.0.1"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::from(log))
            .spawn()
            .map_err(|e| format!("start PostgreSQL: {e}"))?;
        self.child = Some(child);
        self.wait_ready()
    }

    fn wait_ready(&mut self) -> Result<(), String> {
        let deadline = Instant::now() + Duration::from_secs(60);
        let port = self.port.to_string();
        while Instant::now() < deadline {
            let ready = Command::new(self.bin.join("pg_isready"))
                .args(["-q", "-h", "127.0.0.1", "-p", &port, "-U", ROLE, "-d", "postgres"])
                .status()
                .map(|s| s.success())
                .unwrap_or(false);
            if ready {
                return Ok(());
            }
            if let Some(Ok(Some(st))) = self.child.as_mut().map(|c| c.try_wait()) {
                return Err(format!(
                    "PostgreSQL stopped ({st}); see {}",
                    self.data.with_extension("log").display()
                ));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        Err("PostgreSQL did not come up within 60 s".into())
    }

    /// The address of database `name` on this cluster.
    pub fn url(&self, name: &str) -> String {
        format!("postgres://{ROLE}@127.0.0.1:{}/{name}", self.port)
    }

    /// Create database `name` (through the maintenance database).
    pub fn create_db(&self, name: &str) -> Result<(), String> {
        run(Command::new(self.bin.join("createdb")).args([
            "-h",
            "127.0.0.1",
            "-p",
            &self.port.to_string(),
            "-U",
            ROLE,
            name,
        ]))
    }

    /// SIGKILL the postmaster and every process it started, at once, as a power cut would: the
    /// postmaster is stopped first (SIGSTOP) so that it forks nothing while its children are
    /// listed, then all are killed. Its next start runs crash recovery from the WAL.
    pub fn kill(&mut self) {
        if let Some(pid) = self.postmaster_pid() {
            let _ = Command::new("kill").args(["-STOP", &pid.to_string()]).status();
            let mut victims = children_of(pid);
            victims.push(pid);
            let _ = Command::new("kill").arg("-KILL").args(victims.iter().map(u32::to_string)).status();
        }
        // The postmaster is this process's child: reaped here, its pid is gone at once.
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
        // Its backends, orphans now, are reaped by init; none holds the data directory's lock
        // (the postmaster's pid), but wait briefly so that none still runs at the next start.
        let deadline = Instant::now() + Duration::from_secs(5);
        while self.postmaster_pid().is_some_and(|p| Path::new(&format!("/proc/{p}")).exists())
            && Instant::now() < deadline
        {
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The postmaster's pid, from the first line of `postmaster.pid` (readable by its
    /// account, and by root).
    fn postmaster_pid(&self) -> Option<u32> {
        let text = std::fs::read_to_string(self.data.join("postmaster.pid")).ok()?;
        text.lines().next()?.trim().parse().ok()
    }
}

impl Drop for PgCluster {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Processes whose parent is `pid` (from /proc).
fn children_of(pid: u32) -> Vec<u32> {
    let Ok(dir) = std::fs::read_dir("/proc") else { return Vec::new() };
    dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|p| {
            std::fs::read_to_string(format!("/proc/{p}/stat")).ok().and_then(|s| {
                // pid (comm) state ppid …: the comm may hold spaces, so split after ')'.
                s.rsplit(')').next()?.split_whitespace().nth(1)?.parse::<u32>().ok()
            }) == Some(pid)
        })
        .collect()
}

fn run(c: &mut Command) -> Result<(), String> {
    let out = c.stdin(Stdio::null()).output().map_err(|e| format!("{c:?}: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!("{c:?}: {}", String::from_utf8_lossy(&out.stderr).trim()))
    }
}

impl PgCluster {
    /// `pg_amcheck` on database `name` (heap and B-tree checks; the amcheck extension is
    /// installed if missing): "ok", or what it found.
    pub fn amcheck(&self, name: &str) -> Result<String, String> {
        amcheck_at(&self.bin, self.port, ROLE, name)
    }
}

/// `pg_amcheck` on database `name` of the server on 127.0.0.1:`port` as `role` (programs in
/// `bin`): "ok", or what it found.
pub fn amcheck_at(bin: &Path, port: u16, role: &str, name: &str) -> Result<String, String> {
    let out = Command::new(bin.join("pg_amcheck"))
        .args(["-h", "127.0.0.1", "-p", &port.to_string(), "-U", role, "--install-missing", name])
        .env("PGOPTIONS", "-c client_min_messages=warning") // not "extension exists"
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("pg_amcheck: {e}"))?;
    let found = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    Ok(if out.status.success() && found.trim().is_empty() { "ok".into() } else { found.trim().to_string() })
}

#[cfg(test)]
mod tests {
    use super::free_port;

    #[test]
    fn the_port_is_free_and_outside_the_ephemeral_range() {
        let held = std::net::TcpListener::bind(("127.0.0.1", free_port().unwrap())).unwrap();
        let held_port = held.local_addr().unwrap().port();
        assert!((20_000..32_000).contains(&held_port));
        let next = free_port().unwrap();
        assert_ne!(next, held_port, "a port in use is not offered");
        assert!((20_000..32_000).contains(&next));
    }
}
