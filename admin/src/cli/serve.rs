//! `tengen serve`.

use crate::web::net::{Net, NetConfig};
use crate::web::ServeOptions;
use clap::Args;
use std::path::Path;
use std::time::Duration;

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Address to listen on (port 0 picks a free port; the address is printed).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub bind: String,
    /// A reverse proxy whose X-Forwarded-For and X-Forwarded-Proto are believed: an address or
    /// a network (`127.0.0.1`, `10.0.0.0/8`). Repeat for several. Without it, the client is the
    /// socket's peer and those headers are ignored.
    #[arg(long = "trusted-proxy", value_name = "ADDR", num_args = 1..)]
    pub trusted_proxy: Vec<String>,
    /// The address the public uses, e.g. `https://go.example.org`. With https, cookies are
    /// Secure and every response carries HSTS.
    #[arg(long, value_name = "URL")]
    pub public_url: Option<String>,
    /// A session unused this long ends (`90m`, `4h`; s, m, h or d).
    #[arg(long, value_name = "DURATION", default_value = "4h")]
    pub idle_timeout: String,
    /// Take automatic online backups into DIR (each checked with integrity_check).
    #[arg(long, value_name = "DIR")]
    pub backup_dir: Option<std::path::PathBuf>,
    /// How often to back up into --backup-dir (`10m`, `1h`); the first copy is taken at start.
    #[arg(long, value_name = "DURATION", default_value = "10m")]
    pub backup_every: String,
    /// How many automatic copies to keep (besides one per published round, always kept).
    #[arg(long, value_name = "K", default_value_t = 12)]
    pub backup_keep: usize,
    /// Tests only: the database and each backup may not grow past N pages (a full disk).
    #[arg(long, value_name = "N", hide = true)]
    pub max_db_pages: Option<u32>,
}

/// `90s`, `10m`, `4h`, `1d`, or a bare number of seconds.
pub fn parse_duration(s: &str) -> Result<Duration, String> {
    let s = s.trim();
    let (num, unit) = s.split_at(s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len()));
    let n: u64 = num.parse().map_err(|_| format!("not a duration: {s:?} (e.g. 30s, 10m, 4h)"))?;
    let secs = match unit.trim() {
        "" | "s" => n,
        "m" | "min" => n * 60,
        "h" => n * 3600,
        "d" => n * 86_400,
        _ => return Err(format!("not a duration: {s:?} (e.g. 30s, 10m, 4h)")),
    };
    if secs == 0 {
        return Err(format!("a duration must be more than 0: {s:?}"));
    }
    Ok(Duration::from_secs(secs))
}

/// `--public-url`: (https?, host[:port]).
fn parse_public_url(u: &str) -> Result<(bool, String), String> {
    let (scheme, rest) = u.split_once("://").ok_or(format!("--public-url needs http:// or https://: {u}"))?;
    let https = match scheme.to_ascii_lowercase().as_str() {
        "https" => true,
        "http" => false,
        _ => return Err(format!("--public-url needs http:// or https://: {u}")),
    };
    let host = rest.split('/').next().unwrap_or("").to_ascii_lowercase();
    if host.is_empty() {
        return Err(format!("--public-url has no host: {u}"));
    }
    Ok((https, host))
}

pub fn options(db: &Path, a: &ServeArgs) -> Result<ServeOptions, String> {
    let trusted = a.trusted_proxy.iter().map(|p| Net::parse(p)).collect::<Result<Vec<_>, _>>()?;
    let (public_https, public_host) = match &a.public_url {
        Some(u) => {
            let (https, host) = parse_public_url(u)?;
            (https, Some(host))
        }
        None => (false, None),
    };
    let mut o = ServeOptions::new(db.to_path_buf(), a.bind.clone());
    o.net = NetConfig { trusted, public_https, public_host };
    o.idle = parse_duration(&a.idle_timeout)?;
    o.db_opts = crate::db::DbOptions { max_pages: a.max_db_pages, ..Default::default() };
    let every = parse_duration(&a.backup_every)?;
    o.backups = a.backup_dir.as_ref().map(|dir| {
        let auto = crate::db::backup::AutoBackup {
            dir: dir.clone(),
            keep: a.backup_keep,
            max_pages: a.max_db_pages,
        };
        (auto, every)
    });
    Ok(o)
}

pub fn run(db: &Path, a: ServeArgs) -> Result<(), String> {
    let opts = options(db, &a)?;
    actix_web::rt::System::new().block_on(crate::web::serve(opts)).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_and_public_urls() {
        assert_eq!(parse_duration("10m"), Ok(Duration::from_secs(600)));
        assert_eq!(parse_duration("4h"), Ok(Duration::from_secs(14_400)));
        assert_eq!(parse_duration("45"), Ok(Duration::from_secs(45)));
        assert!(parse_duration("0m").is_err());
        assert!(parse_duration("ten").is_err());
        assert!(parse_duration("5 weeks").is_err());
        assert_eq!(parse_public_url("https://Go.Example.org/tengen"), Ok((true, "go.example.org".into())));
        assert!(parse_public_url("go.example.org").is_err());
    }
}
