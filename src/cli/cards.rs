//! `blockprint draw ID`: deal from a seeded shuffle of a deck (the card kinds themselves, `deck` and
//! `cards`, are made through `make`).

use super::{ContentArg, Status};

/// `blockprint draw ID`.
pub(super) fn draw(
    id: &str,
    seed: Option<u64>,
    count: u32,
    content: &ContentArg,
    json: bool,
) -> Status {
    let (lib, _) = match super::checked_tables(&super::root(content)) {
        Ok(x) => x,
        Err(s) => return s,
    };
    let Some(deck) = lib.deck(id).or_else(|| {
        // `city_streets` for `bbb.chase.city_streets`, when only one deck ends so.
        let m: Vec<_> = lib
            .decks
            .iter()
            .filter(|d| d.id.value.ends_with(&format!(".{id}")))
            .collect();
        (m.len() == 1).then(|| m[0])
    }) else {
        let e = crate::error::Error::from(crate::generators::error::Problem::NoSuchDeck {
            given: id.to_owned(),
            decks: lib.decks.iter().map(|d| d.id.value.clone()).collect(),
        });
        eprintln!("{}", super::shown(&e));
        return Status::from_exit(e.exit_code());
    };
    let size = deck.cards.iter().map(|s| s.value.len()).sum::<usize>();
    if count as usize > size {
        eprintln!(
            "error: --count {count}: the deck `{}` has {size} cards, and draws are without replacement\n  = help: give --count {size} or less",
            deck.id.value
        );
        return Status::Io;
    }
    let seed = super::seed_or_fresh(seed, "draws");
    let drawn = crate::generators::cards::draw::draw(deck, seed, count as usize);
    if json {
        return super::print_json(&serde_json::json!({
            "deck": deck.id.value,
            "seed": seed,
            "cards": drawn,
        }));
    }
    for d in &drawn {
        let gloss = if d.gloss.is_empty() {
            String::new()
        } else {
            format!(" ({})", d.gloss)
        };
        outln!(
            "{:>2}. {}{} {}: {} {}{}, damage {}",
            d.n,
            d.rank,
            d.symbol,
            d.obstacle,
            d.attribute,
            d.attribute_name,
            gloss,
            d.damage
        );
    }
    Status::Ok
}
