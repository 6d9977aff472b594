//! `blockprint draw`: cards dealt from a shuffled deck without replacement, for GMs who run a chase
//! without physical cards. The deck is shuffled once per seed (Fisher–Yates on a ChaCha20 stream, the
//! generator `roll` uses), so `--seed N --count K` always deals the same first K cards, and a larger count
//! continues the same order.

use rand::RngExt;
use serde::Serialize;

use super::faces::{self, Obstacle};
use blockprint_content::Deck;

/// The stream of the deck shuffle within a seed (item streams of batches start at 1).
pub const STREAM: u64 = 0x_de_c4;

/// One dealt card.
#[derive(Debug, Clone, Serialize)]
pub struct Drawn {
    /// 1-based position in the deal.
    pub n: usize,
    pub rank: String,
    pub suit: String,
    pub symbol: String,
    pub attribute: String,
    pub attribute_name: String,
    pub gloss: String,
    pub damage: u32,
    pub obstacle: String,
}

/// The first `count` cards of `deck` shuffled with `seed`.
pub fn draw(deck: &Deck, seed: u64, count: usize) -> Vec<Drawn> {
    let mut cards: Vec<Obstacle> = faces::obstacles(deck);
    let mut rng = blockprint_content::roll::rng(seed);
    rng.set_stream(STREAM);
    // u32 draws, so the order is the same on 32- and 64-bit machines.
    for i in (1..cards.len() as u32).rev() {
        let j = rng.random_range(0..=i);
        cards.swap(i as usize, j as usize);
    }
    cards
        .into_iter()
        .take(count)
        .enumerate()
        .map(|(k, c)| Drawn {
            n: k + 1,
            rank: c.rank,
            suit: c.suit,
            symbol: c.symbol,
            attribute: c.attribute,
            attribute_name: c.attribute_name,
            gloss: c.gloss,
            damage: c.damage,
            obstacle: c.text,
        })
        .collect()
}
