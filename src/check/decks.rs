//! Decks: every suit holds exactly 13 cards (A, 2–10, J, Q, K), none repeated within its suit.

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
    }
}
