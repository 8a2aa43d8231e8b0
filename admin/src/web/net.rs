//! Who is asking and over what: the client's address and whether the public sees the site over
//! HTTPS, decided from the socket unless the socket's peer is a configured trusted proxy.
//!
//! `X-Forwarded-For` and `X-Forwarded-Proto` are headers any client can send, so they are read
//! only from a peer named by `serve --trusted-proxy`. Then the client is the last hop of
//! `X-Forwarded-For` that is not itself a trusted proxy (each proxy appends the address it saw,
//! so hops to the left of an untrusted one may be forged).

use actix_web::http::header::HeaderMap;
use std::net::IpAddr;

/// A trusted proxy: one address, or a network `ADDR/BITS`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Net {
    addr: IpAddr,
    bits: u8,
}

impl Net {
    /// `127.0.0.1`, `::1`, `10.0.0.0/8`, `fd00::/8`.
    pub fn parse(s: &str) -> Result<Net, String> {
        let s = s.trim();
        let (a, bits) = match s.split_once('/') {
            Some((a, b)) => (a, Some(b)),
            None => (s, None),
        };
        let addr: IpAddr = a.parse().map_err(|_| format!("not an IP address: {s}"))?;
        let max = if addr.is_ipv4() { 32 } else { 128 };
        let bits = match bits {
            None => max,
            Some(b) => b.parse::<u8>().ok().filter(|b| *b <= max).ok_or(format!("bad prefix length: {s}"))?,
        };
        Ok(Net { addr, bits })
    }

    pub fn contains(&self, ip: IpAddr) -> bool {
        let ip = canonical(ip);
        match (self.addr, ip) {
            (IpAddr::V4(n), IpAddr::V4(a)) => prefix_eq(&n.octets(), &a.octets(), self.bits),
            (IpAddr::V6(n), IpAddr::V6(a)) => prefix_eq(&n.octets(), &a.octets(), self.bits),
            _ => false,
        }
    }
}

/// IPv4 addresses seen on an IPv6 socket (`::ffff:a.b.c.d`) are IPv4 addresses.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map(IpAddr::V4).unwrap_or(ip),
        v4 => v4,
    }
}

fn prefix_eq(a: &[u8], b: &[u8], bits: u8) -> bool {
    let full = usize::from(bits / 8);
    if a[..full] != b[..full] {
        return false;
    }
    let rest = bits % 8;
    rest == 0 || {
        let mask = 0xffu8 << (8 - rest);
        (a[full] & mask) == (b[full] & mask)
    }
}

/// The network settings of `serve`.
#[derive(Debug, Clone, Default)]
pub struct NetConfig {
    pub trusted: Vec<Net>,
    /// `--public-url` is https: every response is for an HTTPS site.
    pub public_https: bool,
    /// The host (and port) of `--public-url`, accepted as the Origin of forms.
    pub public_host: Option<String>,
    /// `--public-url` itself without a trailing slash ("https://go.example.org/tengen"): the
    /// base of the public addresses printed on paper (the table cards' QR codes).
    pub public_url: Option<String>,
}

/// What one request's connection says about its client.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Client {
    pub address: String,
    /// The browser reached us over HTTPS (directly known from `--public-url`, or said by a
    /// trusted proxy).
    pub https: bool,
    /// The request came through a trusted proxy (its Host-related headers may be read).
    pub proxied: bool,
}

impl NetConfig {
    pub fn trusts(&self, ip: IpAddr) -> bool {
        self.trusted.iter().any(|n| n.contains(ip))
    }

    /// The client of a request arriving from `peer` with `headers`.
    pub fn client(&self, peer: Option<IpAddr>, headers: &HeaderMap) -> Client {
        let Some(peer) = peer.map(canonical) else {
            return Client { address: "?".into(), https: self.public_https, proxied: false };
        };
        if !self.trusts(peer) {
            return Client { address: peer.to_string(), https: self.public_https, proxied: false };
        }
        let hops: Vec<IpAddr> = headers
            .get_all("x-forwarded-for")
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .map(|h| h.trim().parse::<IpAddr>().map(canonical))
            .collect::<Result<_, _>>()
            // A hop we cannot read ends the trust: the proxy itself is the client we know.
            .unwrap_or_default();
        let address = hops
            .iter()
            .rev()
            .find(|ip| !self.trusts(**ip))
            .or(hops.first())
            .copied()
            .unwrap_or(peer)
            .to_string();
        let proto_https = headers
            .get("x-forwarded-proto")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(',').next())
            .is_some_and(|p| p.trim().eq_ignore_ascii_case("https"));
        Client { address, https: self.public_https || proto_https, proxied: true }
    }
}

/// Is `to` a path on this site, safe for a Location header? Browsers treat `\` as `/` and
/// drop tabs and newlines from URLs, so `/\evil.example` and `/<TAB>/evil.example` both lead
/// off-site: like `//`, any backslash, whitespace or control character is refused. Paths we
/// hand out are percent-encoded ASCII, so anything else (which a Location header could not
/// carry anyway) is refused too.
pub fn is_local_path(to: &str) -> bool {
    to.starts_with('/') && !to.starts_with("//") && to.chars().all(|c| c.is_ascii_graphic() && c != '\\')
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::http::header::{HeaderName, HeaderValue};

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(HeaderName::from_bytes(k.as_bytes()).unwrap(), HeaderValue::from_str(v).unwrap());
        }
        h
    }

    fn ip(s: &str) -> Option<IpAddr> {
        Some(s.parse().unwrap())
    }

    #[test]
    fn forwarded_headers_of_an_untrusted_peer_are_ignored() {
        let cfg = NetConfig::default();
        let c = cfg.client(
            ip("203.0.113.9"),
            &headers(&[("x-forwarded-for", "1.2.3.4"), ("x-forwarded-proto", "https")]),
        );
        assert_eq!(c, Client { address: "203.0.113.9".into(), https: false, proxied: false });
    }

    #[test]
    fn behind_a_trusted_proxy_the_last_untrusted_hop_is_the_client() {
        let cfg = NetConfig {
            trusted: vec![Net::parse("127.0.0.1").unwrap(), Net::parse("10.0.0.0/8").unwrap()],
            ..Default::default()
        };
        let h = headers(&[
            ("x-forwarded-for", "6.6.6.6, 198.51.100.7"),
            ("x-forwarded-for", "10.1.2.3"),
            ("x-forwarded-proto", "https"),
        ]);
        let c = cfg.client(ip("127.0.0.1"), &h);
        assert_eq!(c, Client { address: "198.51.100.7".into(), https: true, proxied: true });
        // Without the header the proxy itself is all we know.
        assert_eq!(cfg.client(ip("::ffff:127.0.0.1"), &headers(&[])).address, "127.0.0.1");
        // A garbled header is not believed.
        assert_eq!(
            cfg.client(ip("127.0.0.1"), &headers(&[("x-forwarded-for", "1.2.3.4, junk")])).address,
            "127.0.0.1"
        );
    }

    #[test]
    fn networks_match_by_prefix() {
        let n = Net::parse("192.168.0.0/16").unwrap();
        assert!(n.contains("192.168.44.1".parse().unwrap()));
        assert!(!n.contains("192.169.0.1".parse().unwrap()));
        let n = Net::parse("fd00::/7").unwrap();
        assert!(n.contains("fd12::1".parse().unwrap()));
        assert!(Net::parse("10.0.0.0/33").is_err());
        assert!(Net::parse("proxy.local").is_err());
        assert!(Net::parse("10.0.0.1/20").unwrap().contains("10.0.15.255".parse().unwrap()));
    }
}
