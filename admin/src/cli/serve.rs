//! `tengen serve`.

use super::files::{BadValue, CliError};
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
    /// A session unused this long ends (`90m`, `4h`, `1h 30m`; s, m, h, d, …).
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
    /// Threads answering HTTP requests (1–512). Without it, one per core of the machine.
    #[arg(long, value_name = "N")]
    pub workers: Option<String>,
    /// Tests only: the database and each backup may not grow past N pages (a full disk).
    #[arg(long, value_name = "N", hide = true)]
    pub max_db_pages: Option<u32>,
}

/// A duration as humantime reads it (`90s`, `10m`, `4h`, `1d`, `1h 30m`), or a bare number of
/// seconds; at least one second.
pub fn parse_duration(s: &str) -> Result<Duration, BadValue> {
    let s = s.trim();
    let not = || BadValue::NotDuration(s.to_string());
    let d = if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
        s.parse().map(Duration::from_secs).map_err(|_| not())?
    } else {
        humantime::parse_duration(s).map_err(|_| not())?
    };
    if d.is_zero() {
        return Err(BadValue::ZeroDuration(s.to_string()));
    }
    if d < Duration::from_secs(1) {
        return Err(BadValue::UnderASecond(s.to_string()));
    }
    Ok(d)
}

/// `--workers`: 1 to 512 threads (actix refuses more, and none would serve nothing).
fn parse_workers(s: &str) -> Result<usize, BadValue> {
    s.trim().parse().ok().filter(|n| (1..=512).contains(n)).ok_or_else(|| BadValue::NotWorkers(s.to_string()))
}

/// `--public-url`'s first two parts (its tests' view of [`public_url_parts`]).
#[cfg(test)]
fn parse_public_url(u: &str) -> Result<(bool, String), BadValue> {
    public_url_parts(u).map(|(https, host, _)| (https, host))
}

/// `--public-url` read: https?, the host as a browser's Origin names it (lower case, with the
/// port unless it is the scheme's default), and the base of printed public addresses: scheme,
/// host and path without a trailing slash, no query or fragment.
fn public_url_parts(u: &str) -> Result<(bool, String, String), BadValue> {
    let url = url::Url::parse(u).map_err(|e| match e {
        url::ParseError::RelativeUrlWithoutBase => BadValue::NoScheme(u.to_string()),
        url::ParseError::EmptyHost => BadValue::NoHost(u.to_string()),
        _ => BadValue::NotUrl(u.to_string()),
    })?;
    let https = match url.scheme() {
        "https" => true,
        "http" => false,
        _ => return Err(BadValue::NoScheme(u.to_string())),
    };
    let host = url.host_str().filter(|h| !h.is_empty()).ok_or(BadValue::NoHost(u.to_string()))?;
    let host = match url.port() {
        Some(port) => format!("{host}:{port}"),
        None => host.to_string(),
    };
    let base = format!("{}://{host}{}", url.scheme(), url.path().trim_end_matches('/'));
    Ok((https, host, base))
}

/// `--public-url`'s base of printed public addresses (`tengen print table-cards` takes the
/// same URL as the server).
pub fn public_url_base(u: &str) -> Result<String, CliError> {
    public_url_parts(u)
        .map(|(_, _, base)| base)
        .map_err(|bad| CliError::BadValue { flag: "--public-url", bad })
}

pub fn options(db: &Path, a: &ServeArgs) -> Result<ServeOptions, CliError> {
    let bad = |flag: &'static str| move |bad: BadValue| CliError::BadValue { flag, bad };
    let trusted = a
        .trusted_proxy
        .iter()
        .map(|p| Net::parse(p).map_err(|_| BadValue::NotNetwork(p.clone())))
        .collect::<Result<Vec<_>, _>>()
        .map_err(bad("--trusted-proxy"))?;
    let (public_https, public_host, public_url) = match &a.public_url {
        Some(u) => {
            let (https, host, base) = public_url_parts(u).map_err(bad("--public-url"))?;
            (https, Some(host), Some(base))
        }
        None => (false, None, None),
    };
    let mut o = ServeOptions::new(db.to_path_buf(), a.bind.clone());
    o.net = NetConfig { trusted, public_https, public_host, public_url };
    o.idle = parse_duration(&a.idle_timeout).map_err(bad("--idle-timeout"))?;
    o.workers = a.workers.as_deref().map(parse_workers).transpose().map_err(bad("--workers"))?;
    o.db_opts = crate::db::DbOptions { max_pages: a.max_db_pages, ..Default::default() };
    let every = parse_duration(&a.backup_every).map_err(bad("--backup-every"))?;
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

pub fn run(db: &Path, a: ServeArgs) -> Result<(), CliError> {
    let opts = options(db, &a)?;
    actix_web::rt::System::new().block_on(crate::web::serve(opts)).map_err(|e| CliError::Said(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_and_public_urls() {
        assert_eq!(parse_duration("10m"), Ok(Duration::from_secs(600)));
        assert_eq!(parse_duration("4h"), Ok(Duration::from_secs(14_400)));
        assert_eq!(parse_duration("45"), Ok(Duration::from_secs(45)));
        assert_eq!(parse_duration("1s"), Ok(Duration::from_secs(1)));
        assert_eq!(parse_duration("90min"), Ok(Duration::from_secs(5_400)));
        assert_eq!(parse_duration("1h 30m"), Ok(Duration::from_secs(5_400)));
        assert_eq!(parse_duration(" 2d "), Ok(Duration::from_secs(172_800)));
        assert_eq!(parse_duration("0m"), Err(BadValue::ZeroDuration("0m".into())));
        assert_eq!(parse_duration("0"), Err(BadValue::ZeroDuration("0".into())));
        assert_eq!(parse_duration("500ms"), Err(BadValue::UnderASecond("500ms".into())));
        for bad in ["ten", "", "4x", "-5m", "5 fortnights", "m"] {
            assert_eq!(parse_duration(bad), Err(BadValue::NotDuration(bad.trim().into())), "{bad:?}");
        }
        assert!(parse_duration("99999999999999999999").is_err());
        assert_eq!(parse_public_url("https://Go.Example.org/tengen"), Ok((true, "go.example.org".into())));
        // The base of printed addresses keeps the path, without its trailing slash.
        let base = |u: &str| public_url_parts(u).unwrap().2;
        assert_eq!(base("https://Go.Example.org/tengen/?x=1#y"), "https://go.example.org/tengen");
        assert_eq!(base("http://go.example.org:8080/"), "http://go.example.org:8080");
        assert_eq!(
            parse_public_url("http://go.example.org:8080/"),
            Ok((false, "go.example.org:8080".into()))
        );
        // The default port is left out, as a browser's Origin leaves it out.
        assert_eq!(parse_public_url("https://go.example.org:443"), Ok((true, "go.example.org".into())));
        assert_eq!(parse_public_url("HTTPS://[::1]:8443"), Ok((true, "[::1]:8443".into())));
        let needs_scheme = |u: &str| BadValue::NoScheme(u.into());
        assert_eq!(parse_public_url("go.example.org"), Err(needs_scheme("go.example.org")));
        assert_eq!(parse_public_url("ftp://go.example.org"), Err(needs_scheme("ftp://go.example.org")));
        assert_eq!(parse_public_url("mailto:a@go.example.org"), Err(needs_scheme("mailto:a@go.example.org")));
        assert_eq!(parse_public_url("https://"), Err(BadValue::NoHost("https://".into())));
        assert_eq!(
            parse_public_url("https://go example.org"),
            Err(BadValue::NotUrl("https://go example.org".into()))
        );
    }

    /// A bad `--idle-timeout`, `--backup-every` or `--public-url` stops `tengen serve` before it
    /// starts, with a message naming the option.
    #[test]
    fn bad_options_are_refused_by_name() {
        use crate::i18n::Lang;
        use clap::Parser;
        #[derive(Parser)]
        struct Cli {
            #[command(flatten)]
            serve: ServeArgs,
        }
        // Worded as the user reads them, in both languages.
        let refusal = |args: &[&str], lang: Lang| {
            let cli = Cli::try_parse_from(std::iter::once("serve").chain(args.iter().copied())).unwrap();
            options(Path::new("t.db"), &cli.serve).err().map(|e| e.words(lang))
        };
        assert_eq!(refusal(&[], Lang::Zh), None);
        let fine = ["--idle-timeout", "1h 30m", "--public-url", "https://go.example.org"];
        assert_eq!(refusal(&fine, Lang::En), None);
        let ten = ["--idle-timeout", "ten"];
        assert_eq!(
            refusal(&ten, Lang::En).unwrap(),
            "--idle-timeout: not a duration: “ten” (e.g. 30s, 10m, 4h)"
        );
        assert_eq!(refusal(&ten, Lang::Zh).unwrap(), "--idle-timeout：“ten”不是时长（例如 30s、10m、4h）");
        let zero = ["--backup-dir", "b", "--backup-every", "0m"];
        assert_eq!(refusal(&zero, Lang::En).unwrap(), "--backup-every: a duration must be more than 0: “0m”");
        assert_eq!(refusal(&zero, Lang::Zh).unwrap(), "--backup-every：时长必须大于 0：“0m”");
        let url = ["--public-url", "go.example.org"];
        assert_eq!(
            refusal(&url, Lang::En).unwrap(),
            "--public-url: needs http:// or https://: go.example.org"
        );
        assert_eq!(
            refusal(&url, Lang::Zh).unwrap(),
            "--public-url：须以 http:// 或 https:// 开头：go.example.org"
        );
        for n in ["0", "513", "two", "-1", ""] {
            let words = refusal(&[&format!("--workers={n}")], Lang::En).unwrap();
            assert_eq!(words, format!("--workers: a number of threads from 1 to 512: “{n}”"));
        }
        assert_eq!(refusal(&["--workers", "0"], Lang::Zh).unwrap(), "--workers：须为 1 至 512 的线程数：“0”");
        let cli = Cli::try_parse_from(["serve", "--workers", " 16 "]).unwrap();
        assert_eq!(options(Path::new("t.db"), &cli.serve).unwrap().workers, Some(16));
        let cli = Cli::try_parse_from(["serve"]).unwrap();
        assert_eq!(options(Path::new("t.db"), &cli.serve).unwrap().workers, None, "one per core");
        let proxy = ["--trusted-proxy", "proxy.local"];
        assert!(refusal(&proxy, Lang::Zh).unwrap().starts_with("--trusted-proxy：不是 IP 地址或网段"));
    }
}
