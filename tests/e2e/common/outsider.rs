//! A published lot replayed as an outsider replays it: from the public pairings page alone —
//! its description of the draws (catalog key `draw.hint`) and each lot's method, seed,
//! stream and candidates — with a ChaCha20 written here from RFC 8439, not with the crate's
//! draw code: the public pairings page gives an outsider what checking a lot needs.

/// The sentences of the public page's description of the lots (the English page) that
/// [`replay`] follows; [`check_description`] finds each on the page.
pub const FOLLOWS: &[&str] = &[
    "ChaCha20 (the RFC 8439 block function, 20 rounds) keyed by the lot's seed (8 bytes little-endian, the other 24 bytes zero)",
    "a 64-bit block counter from 0 in state words 12–13 and the lot's stream number as the 64-bit nonce in words 14–15",
    "the keystream is read as 64-bit words, each the next 8 bytes little-endian",
    "A draw below(n) takes the next word modulo n, drawing again while the word is at least 2^64 − (2^64 mod n).",
    "The candidates are pairing numbers in ascending order, except a nigiri's: holder, then guesser.",
    "Fisher–Yates shuffle: for i from the last position down to 1, swap positions i and below(i + 1).",
    "One of the candidates: the one at position below(n).",
    "A nigiri from the seed: skip one word; the grab is 5 + below(36) white stones; the guess is odd if below(2) = 1, else even; a right guess takes Black, otherwise the holder does; the outcome is Black, the grab and the black stones shown (1 odd, 2 even).",
];

/// The page (its HTML) describes the lots as [`replay`] computes them.
pub fn check_description(html: &str) {
    let text = super::unescape(html);
    for s in FOLLOWS {
        assert!(text.contains(s), "the public page does not say: {s}");
    }
}

/// The ChaCha20 block function (RFC 8439 §2.3) on the original layout the page names: words
/// 12–13 a 64-bit block counter, words 14–15 the 64-bit stream number.
pub fn block(key: &[u8; 32], counter: u64, stream: u64) -> [u32; 16] {
    let mut s = [0u32; 16];
    s[..4].copy_from_slice(&[0x6170_7865, 0x3320_646e, 0x7962_2d32, 0x6b20_6574]);
    for (i, w) in key.chunks(4).enumerate() {
        s[4 + i] = u32::from_le_bytes(w.try_into().unwrap());
    }
    s[12..16].copy_from_slice(&[
        counter as u32,
        (counter >> 32) as u32,
        stream as u32,
        (stream >> 32) as u32,
    ]);
    let mut x = s;
    let q = |x: &mut [u32; 16], a: usize, b: usize, c: usize, d: usize| {
        x[a] = x[a].wrapping_add(x[b]);
        x[d] = (x[d] ^ x[a]).rotate_left(16);
        x[c] = x[c].wrapping_add(x[d]);
        x[b] = (x[b] ^ x[c]).rotate_left(12);
        x[a] = x[a].wrapping_add(x[b]);
        x[d] = (x[d] ^ x[a]).rotate_left(8);
        x[c] = x[c].wrapping_add(x[d]);
        x[b] = (x[b] ^ x[c]).rotate_left(7);
    };
    for _ in 0..10 {
        q(&mut x, 0, 4, 8, 12);
        q(&mut x, 1, 5, 9, 13);
        q(&mut x, 2, 6, 10, 14);
        q(&mut x, 3, 7, 11, 15);
        q(&mut x, 0, 5, 10, 15);
        q(&mut x, 1, 6, 11, 12);
        q(&mut x, 2, 7, 8, 13);
        q(&mut x, 3, 4, 9, 14);
    }
    for (o, i) in x.iter_mut().zip(s) {
        *o = o.wrapping_add(i);
    }
    x
}

/// The keystream of one lot as 64-bit words.
struct Words {
    key: [u8; 32],
    stream: u64,
    counter: u64,
    buf: Vec<u32>,
}

impl Words {
    /// The key is the seed in bytes 0..8 (little-endian), the block counter starts at 0.
    fn new(seed: u64, stream: u64) -> Words {
        let mut key = [0u8; 32];
        key[..8].copy_from_slice(&seed.to_le_bytes());
        Words { key, stream, counter: 0, buf: Vec::new() }
    }

    fn next_u32(&mut self) -> u32 {
        if self.buf.is_empty() {
            self.buf = block(&self.key, self.counter, self.stream).iter().rev().copied().collect();
            self.counter += 1;
        }
        self.buf.pop().unwrap()
    }

    /// The next 64-bit word: the next 8 bytes of the keystream, little-endian.
    fn next_u64(&mut self) -> u64 {
        let lo = u64::from(self.next_u32());
        lo | (u64::from(self.next_u32()) << 32)
    }

    /// below(n): the next word modulo n, drawn again while it is at least 2^64 − (2^64 mod n).
    fn below(&mut self, n: u64) -> u64 {
        let rem = ((u128::from(u64::MAX) + 1) % u128::from(n)) as u64;
        loop {
            let x = self.next_u64();
            if u128::from(x) < (u128::from(u64::MAX) + 1) - u128::from(rem) {
                return x % n;
            }
        }
    }
}

/// The outcome of a lot as the page's description ([`FOLLOWS`]) says to compute it; `None`
/// for a method it does not explain.
pub fn replay(method: &str, seed: u64, stream: u64, candidates: &[u32]) -> Option<Vec<u32>> {
    let mut w = Words::new(seed, stream);
    match method {
        "shuffle" => {
            let mut v = candidates.to_vec();
            for i in (1..v.len()).rev() {
                let j = w.below(i as u64 + 1) as usize;
                v.swap(i, j);
            }
            Some(v)
        }
        "pick" => Some(vec![candidates[w.below(candidates.len() as u64) as usize]]),
        "nigiri" => {
            let [holder, guesser] = candidates else { return None };
            w.next_u64();
            let grab = 5 + w.below(36) as u32;
            let odd = w.below(2) == 1;
            let black = if (grab % 2 == 1) == odd { *guesser } else { *holder };
            Some(vec![black, grab, if odd { 1 } else { 2 }])
        }
        _ => None,
    }
}
