//! The server under test: the real binary started on a free port against a database of its
//! own, stopped, restarted, and run as a CLI.
//!
//! The binary: Cargo sets `CARGO_BIN_EXE_<name>` only for binaries of the package under test,
//! so the root package has its own thin binary `tengen-e2e-server` (tests/bin/server.rs) that
//! calls the same `admin::cli::run` as `tengen`. A plain `cargo test --workspace` builds it
//! with the tests; no nested cargo call, no build lock. `TENGEN_BIN` overrides it (e.g. to
//! test a release build of `tengen` itself). The lab's crash and load runs likewise run
//! `tengen-e2e-lab` (tests/bin/lab.rs, `lab::run` as `tengen-lab`), or `TENGEN_LAB_BIN`.

use super::{fresh_database, is_pg, Client};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdout, Command, Output, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The first organizer's account, made through the one-time link ([`Server::first_organizer`]).
pub const ORG_USER: &str = "org";
pub const ORG_PASS: &str = "organizer-secret-1";

/// The server binary: `tengen-e2e-server`, or `TENGEN_BIN`.
pub fn bin() -> PathBuf {
    match std::env::var_os("TENGEN_BIN") {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(env!("CARGO_BIN_EXE_tengen-e2e-server")),
    }
}

/// The lab's binary: `stress crash`, `bench load` and the other runs of `tengen-lab`.
pub fn lab_bin() -> PathBuf {
    match std::env::var_os("TENGEN_LAB_BIN") {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(env!("CARGO_BIN_EXE_tengen-e2e-lab")),
    }
}

/// Run `tengen` with `args` as they are (no `--db` added: `migrate-db`, or a `--db` of the
/// caller's), in `dir` when given; quiet logs, no stdin.
pub fn run_tengen(dir: Option<&Path>, args: &[&str]) -> Output {
    run_quietly(&bin(), dir, args)
}

/// Run `tengen-lab` with `args` (`stress crash …`, `bench load …`); quiet logs, no stdin.
pub fn run_lab(args: &[&str]) -> Output {
    run_quietly(&lab_bin(), None, args)
}

fn run_quietly(program: &Path, dir: Option<&Path>, args: &[&str]) -> Output {
    let mut cmd = Command::new(program);
    if let Some(d) = dir {
        cmd.current_dir(d);
    }
    // Chinese, as `cli` runs it: what the commands say follows the locale.
    let out =
        cmd.args(args).env("TENGEN_LOG", "warn").env("LC_ALL", "zh_CN.UTF-8").stdin(Stdio::null()).output();
    out.unwrap_or_else(|e| panic!("run {}: {e}", program.display()))
}

/// Run a `tengen` subcommand against `db`.
pub fn cli(db: &Path, args: &[&str], stdin_env_password: Option<&str>) -> Output {
    cli_command(db, args, stdin_env_password).output().expect("run tengen")
}

fn cli_command(db: &Path, args: &[&str], stdin_env_password: Option<&str>) -> Command {
    let mut cmd = Command::new(bin());
    // The command line speaks the locale's language: the tests pin it to Chinese, the default.
    cmd.arg("--db").arg(db).args(args).stdin(Stdio::null()).env("LC_ALL", "zh_CN.UTF-8");
    if let Some(p) = stdin_env_password {
        cmd.env("TENGEN_PASSWORD", p);
    }
    cmd
}

/// A running server (killed when dropped) with its directory and database.
pub struct Server {
    child: Option<Child>,
    pub base: String,
    pub setup_url: Option<String>,
    pub dir: tempfile::TempDir,
    pub db: PathBuf,
    pub stdout: Vec<String>,
}

impl Server {
    /// A fresh server on a fresh database.
    pub fn start() -> Server {
        let dir = tempfile::tempdir().expect("tempdir");
        Server::start_in(dir)
    }

    /// A server on the database in `dir` (tengen.db).
    pub fn start_in(dir: tempfile::TempDir) -> Server {
        Server::start_with(dir, &[], Stdio::inherit(), "warn")
    }

    /// A fresh server with more `serve` options (e.g. `--trusted-proxy 127.0.0.1`).
    pub fn start_args(args: &[&str]) -> Server {
        Server::start_with(tempfile::tempdir().expect("tempdir"), args, Stdio::inherit(), "warn")
    }

    /// A server on the database in `dir` with more `serve` options, its stderr sent to
    /// `stderr` (e.g. /dev/full: a log that cannot be written) and `TENGEN_LOG=log`.
    pub fn start_with(dir: tempfile::TempDir, args: &[&str], stderr: Stdio, log: &str) -> Server {
        Server::start_full(dir, args, stderr, log, &[])
    }

    /// A fresh server with more environment variables (e.g. `TENGEN_PAIR_HOLD_MS`).
    pub fn start_env(envs: &[(&str, &str)]) -> Server {
        Server::start_full(tempfile::tempdir().expect("tempdir"), &[], Stdio::inherit(), "warn", envs)
    }

    pub fn start_full(
        dir: tempfile::TempDir,
        args: &[&str],
        stderr: Stdio,
        log: &str,
        envs: &[(&str, &str)],
    ) -> Server {
        let db = fresh_database(dir.path());
        Server::spawn(dir, db, args, stderr, log, envs)
    }

    /// A second server on this server's database (several `tengen serve`, one office). Its own
    /// directory is empty; the database stays this server's.
    pub fn beside(&self) -> Server {
        let dir = tempfile::tempdir().expect("tempdir");
        Server::spawn(dir, self.db.clone(), &[], Stdio::inherit(), "warn", &[])
    }

    /// A server on the database `db` (a file, or a `postgres://` address), not a temporary file.
    pub fn start_on(db: &str) -> Server {
        let dir = tempfile::tempdir().expect("tempdir");
        Server::spawn(dir, PathBuf::from(db), &[], Stdio::inherit(), "warn", &[])
    }

    fn spawn(
        dir: tempfile::TempDir,
        db: PathBuf,
        args: &[&str],
        stderr: Stdio,
        log: &str,
        envs: &[(&str, &str)],
    ) -> Server {
        // In its own directory: on PostgreSQL the automatic backups go to ./backups.
        let mut child = Command::new(bin())
            .current_dir(dir.path())
            .envs(envs.iter().copied())
            .arg("serve")
            .arg("--db")
            .arg(&db)
            .arg("--bind")
            .arg("127.0.0.1:0")
            .args(args)
            .env("TENGEN_LOG", log)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .expect("start the server binary");
        let lines = lines_of(child.stdout.take().expect("stdout"));
        let (base, stdout) = until_listening(&mut child, &lines);
        let setup_url =
            stdout.iter().find_map(|l| l.trim().strip_prefix("http://").map(|_| l.trim().to_string()));
        Server { child: Some(child), base, setup_url, dir, db, stdout }
    }

    pub fn client(&self) -> Client {
        Client::new(&self.base)
    }

    /// Run a `tengen` subcommand against this server's database, in its directory (where a
    /// PostgreSQL server's automatic backups go, as SQLite's go beside the file).
    pub fn cli(&self, args: &[&str]) -> Output {
        cli_command(&self.db, args, None).current_dir(self.dir.path()).output().expect("run tengen")
    }

    /// Create the first organizer through the one-time link; returns the logged-in client.
    pub fn first_organizer(&self) -> Client {
        let url = self.setup_url.clone().expect("first-run link printed");
        let path = url.trim_start_matches(&self.base).to_string();
        let c = self.client();
        let page = c.get(&path);
        assert_eq!(page.status, 200, "{}", page.body);
        let r = c.post_form(
            &path,
            &[
                ("csrf", &page.csrf()),
                ("username", ORG_USER),
                ("display_name", "赛事组织者"),
                ("password", ORG_PASS),
                ("password2", ORG_PASS),
            ],
        );
        assert_eq!(r.status, 303, "{}", r.body);
        c
    }

    /// The server's process id (to limit its open files, say).
    pub fn pid(&self) -> u32 {
        self.child.as_ref().map(Child::id).expect("a running server")
    }

    /// Is the server process still running?
    pub fn alive(&mut self) -> bool {
        self.child.as_mut().is_some_and(|c| matches!(c.try_wait(), Ok(None)))
    }

    /// Stop the server and start it again on the same directory with `args`.
    pub fn restart(mut self, args: &[&str]) -> Server {
        self.stop();
        let dir = std::mem::replace(&mut self.dir, tempfile::tempdir().expect("tempdir"));
        if is_pg(&self.db) {
            return Server::spawn(dir, self.db.clone(), args, Stdio::inherit(), "warn", &[]);
        }
        Server::start_with(dir, args, Stdio::inherit(), "warn")
    }

    /// Stop the server (and wait for it), keeping the directory.
    pub fn stop(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop();
        keep_database(&self.db);
    }
}

/// The lines a child prints, read on a thread of their own (a pipe nobody reads would stop the
/// server once full).
fn lines_of(stdout: ChildStdout) -> mpsc::Receiver<String> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

/// The server's lines up to the one that says where it listens (within a minute, else the
/// server is killed and the test fails with what it printed): its base URL and those lines.
fn until_listening(child: &mut Child, lines: &mpsc::Receiver<String>) -> (String, Vec<String>) {
    let mut seen = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let Ok(line) = lines.recv_timeout(deadline.saturating_duration_since(Instant::now())) else {
            let _ = child.kill();
            panic!("server did not start; output so far: {seen:?}");
        };
        let base = line.split("listening on ").nth(1).map(|rest| rest.trim().to_string());
        seen.push(line);
        if let Some(base) = base {
            return (base, seen);
        }
    }
}

/// With `TENGEN_E2E_KEEP=DIR`, a test's SQLite database is copied to `DIR/<module>-<test>.db`
/// when its server stops: the events the e2e tests build (the rehearsal's, the crawl's) can
/// then be served again by another build and their pages compared (docs/testing.md, "Same
/// pages before and after").
fn keep_database(db: &Path) {
    let Some(dir) = std::env::var_os("TENGEN_E2E_KEEP") else { return };
    let name = std::thread::current().name().unwrap_or("server").replace("::", "-");
    let _ = std::fs::create_dir_all(&dir);
    // The server was killed: what it committed may still be in the write-ahead log.
    for suffix in ["", "-wal"] {
        let from = PathBuf::from(format!("{}{suffix}", db.display()));
        if from.exists() {
            let _ = std::fs::copy(&from, Path::new(&dir).join(format!("{name}.db{suffix}")));
        }
    }
}
