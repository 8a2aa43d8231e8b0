//! Draws (抽签, 猜先): seeded lots, nigiri and the double-loss lot.
//!
//! Every random choice comes from [`lots::Lot`], a ChaCha20 stream keyed by a stored `u64`
//! seed, and is returned as a [`lots::DrawRecord`] so it can be stored, replayed and shown.

pub mod double_loss;
pub mod lots;
pub mod nigiri;

/// Derives an independent seed for one item of a draw (a game, a table) from the round's
/// seed, so that each item's lot does not depend on how many other items were drawn.
/// SplitMix64 finaliser over `seed` and `tag`; stored in the item's [`lots::DrawRecord`].
pub fn derive_seed(seed: u64, tag: u64) -> u64 {
    let mut z = seed ^ tag.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    #[test]
    fn derive_seed_is_pinned() {
        // Pinned: stored draws replay from derived seeds.
        assert_eq!(super::derive_seed(0, 0), 0);
        assert_ne!(super::derive_seed(1, 2), super::derive_seed(2, 1));
    }
}
