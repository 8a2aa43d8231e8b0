//! Logging that never takes the server down (shared by `cli` and `web`). Logs go to stderr; a log that cannot be written
//! (a full disk, a closed pipe, `/dev/full`) loses the lines, never the server: the writer
//! reports every write as done, and tracing-subscriber's own complaint about a failed write
//! (an `eprintln!`, which panics when stderr fails) is switched off. The console lines of
//! `serve` go through [`say`] for the same reason.

use std::io::Write;

/// stderr that swallows its errors.
struct LossyStderr;

impl Write for LossyStderr {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let _ = std::io::stderr().write_all(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        let _ = std::io::stderr().flush();
        Ok(())
    }
}

/// Set up logging from `TENGEN_LOG` (`debug|info|warn|error`, default info).
pub fn init() {
    let level = match std::env::var("TENGEN_LOG").as_deref() {
        Ok("debug") => tracing::Level::DEBUG,
        Ok("warn") => tracing::Level::WARN,
        Ok("error") => tracing::Level::ERROR,
        _ => tracing::Level::INFO,
    };
    let _ = tracing_subscriber::fmt()
        .with_max_level(level)
        .with_writer(|| LossyStderr)
        .log_internal_errors(false)
        .try_init();
}

/// A line on stdout that is lost, not a panic, when stdout cannot be written.
pub fn say(line: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// A line on stderr, the same way.
pub fn complain(line: &str) {
    let _ = writeln!(std::io::stderr(), "{line}");
}
