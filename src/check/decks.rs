//! Decks: every suit holds exactly 13 cards (A, 2–10, J, Q, K), none blank, none repeated within its suit
//! or in another suit of the deck (a dealt card must say which obstacle it is), and every suit says what it
//! stands for.

use std::collections::BTreeMap;

use crate::content::{Library, RANKS, SUITS};
use crate::diag::{Diagnostic, Kind};

pub(super) fn check(lib: &Library, out: &mut Vec<Diagnostic>) {
    for d in &lib.decks {
        let id = &d.id.value;
        for (suit, cards) in SUITS.iter().zip(&d.cards) {
            let n = cards.value.len();
            if n < RANKS.len() {
                let missing = RANKS[n..].join(", ");
                out.push(
                    Diagnostic::error(
                        Kind::MissingCard,
                        &lib.sources,
                        &cards.loc,
                        format!(
                            "{suit} of deck `{id}` has {n} cards; {missing} {} missing",
                            if n + 1 == RANKS.len() { "is" } else { "are" }
                        ),
                    )
                    .with_table(id)
                    .with_hint("give each suit 13 cards in rank order A, 2 … 10, J, Q, K"),
                );
            } else if n > RANKS.len() {
                out.push(
                    Diagnostic::error(
                        Kind::DuplicateCard,
                        &lib.sources,
                        &cards.value[RANKS.len()].loc,
                        format!(
                            "{suit} of deck `{id}` has {n} cards, {} more than the 13 ranks",
                            n - RANKS.len()
                        ),
                    )
                    .with_table(id)
                    .with_hint("remove the extra cards; each suit has exactly A, 2 … 10, J, Q, K"),
                );
            }
            let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
            for (i, card) in cards.value.iter().enumerate() {
                let rank = RANKS.get(i).copied().unwrap_or("extra");
                if card.value.trim().is_empty() {
                    out.push(
                        Diagnostic::error(
                            Kind::MissingCard,
                            &lib.sources,
                            &card.loc,
                            format!("{suit} {rank} of deck `{id}` is blank"),
                        )
                        .with_table(id)
                        .with_hint("write the obstacle this card deals, e.g. \"Red light\""),
                    );
                    continue;
                }
                match seen.get(card.value.as_str()) {
                    Some(&j) => out.push(
                        Diagnostic::error(
                            Kind::DuplicateCard,
                            &lib.sources,
                            &card.loc,
                            format!(
                                "{suit} {rank} of deck `{id}` repeats {suit} {} (`{}`)",
                                RANKS[j], card.value
                            ),
                        )
                        .with_table(id)
                        .with_hint(
                            "every card of a suit is a different obstacle; change one of them",
                        ),
                    ),
                    None => {
                        seen.insert(&card.value, i);
                    }
                }
            }
        }
        // The same obstacle in two suits.
        let mut first: BTreeMap<String, (&str, &str)> = BTreeMap::new();
        for (suit, cards) in SUITS.iter().zip(&d.cards) {
            for (card, rank) in cards.value.iter().zip(RANKS) {
                let key = card.value.trim().to_lowercase();
                if key.is_empty() {
                    continue;
                }
                match first.get(&key) {
                    Some((s, r)) if s != suit => out.push(
                        Diagnostic::error(
                            Kind::DuplicateCard,
                            &lib.sources,
                            &card.loc,
                            format!(
                                "{suit} {rank} of deck `{id}` repeats {s} {r} (`{}`)",
                                card.value
                            ),
                        )
                        .with_table(id)
                        .with_hint(
                            "each of the 52 cards is a different obstacle; change one of them",
                        ),
                    ),
                    Some(_) => {}
                    None => {
                        first.insert(key, (suit, rank));
                    }
                }
            }
        }
        for (suit, meaning) in SUITS.iter().zip([
            &d.suits.hearts,
            &d.suits.clubs,
            &d.suits.diamonds,
            &d.suits.spades,
        ]) {
            if meaning.trim().is_empty() {
                out.push(
                    Diagnostic::error(
                        Kind::MissingCard,
                        &lib.sources,
                        &d.id.loc,
                        format!("deck `{id}` does not say what {suit} stand for"),
                    )
                    .with_table(id)
                    .with_hint(format!(
                        "give `suits.{suit}` the attribute and its gloss, e.g. \"Wisdom (street smarts)\""
                    )),
                );
            }
        }
    }
}
