//! Counting a final position. (Being written: see the rules-count helper.)

use serde::{Deserialize, Serialize};

/// How a final position is counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum CountingMethod {
    /// 数子法: area counting (Chinese, Art. 9; AGA).
    #[default]
    Area,
    /// 数目法: territory plus prisoners (Japanese/Korean).
    Territory,
}
