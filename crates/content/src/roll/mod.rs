//! Seeded generators: a user's seed in, a portable ChaCha stream and rolled results (with the table and row
//! that produced each) out. ChaCha20 is named explicitly so a seed reproduces the same rolls forever.

pub mod calendar;
pub mod case;
mod closing;
pub mod detective;
pub mod npc;
mod table;

use rand::SeedableRng;
pub use rand_chacha::ChaCha20Rng;
pub use table::{InlineRoll, RollError, TableRoll, display_value, roll_table};

/// The generator for a seed.
pub fn rng(seed: u64) -> ChaCha20Rng {
    ChaCha20Rng::seed_from_u64(seed)
}

/// A fresh seed from the operating system (below 2^53), for runs without `--seed`.
pub fn fresh_seed() -> u64 {
    let mut buf = [0u8; 8];
    let raw = match getrandom::fill(&mut buf) {
        Ok(()) => u64::from_le_bytes(buf),
        // No entropy source: the clock still gives a seed that is printed and so reproducible.
        Err(_) => std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64),
    };
    raw & case::MAX_SEED
}
