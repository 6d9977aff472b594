//! Decks: the declared ranks (`ranks`, default A, 2–10, J, Q, K) are standard card ranks, each once; every
//! suit holds exactly one card per declared rank, none blank, none repeated within its suit or in another
//! suit of the deck (a dealt card must say which obstacle it is), and every suit says what it stands for.

use std::collections::BTreeMap;

use crate::diag::{Diagnostic, Kind};
use crate::{Deck, Library, RANKS, SUITS};

/// The declared ranks: at least one, each a standard rank (so its damage is defined), none twice.
fn check_ranks(lib: &Library, d: &Deck, out: &mut Vec<Diagnostic>) {
    let id = &d.id.value;
    if d.ranks.value.is_empty() {
        out.push(
            Diagnostic::error(
                Kind::MissingCard,
                &lib.sources,
                &d.ranks.loc,
                format!("deck `{id}` declares no ranks"),
            )
            .with_table(id)
            .with_hint(
                "list the ranks of each suit, e.g. ranks = [\"A\", \"7\", \"8\", \"9\", \"10\", \"J\", \"Q\", \"K\"], or leave the key out for all 13",
            ),
        );
    }
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, r) in d.ranks.value.iter().enumerate() {
        if !RANKS.contains(&r.value.as_str()) {
            out.push(
                Diagnostic::error(
                    Kind::BadValue,
                    &lib.sources,
                    &r.loc,
                    format!("rank `{}` of deck `{id}` is not a card rank", r.value),
                )
                .with_table(id)
                .with_hint(
                    "a rank is one of A, 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K (its damage: A = 1, 2–10 as printed, J, Q, K = 10)",
                ),
            );
        } else if let Some(&j) = seen.get(r.value.as_str()) {
            out.push(
                Diagnostic::error(
                    Kind::DuplicateCard,
                    &lib.sources,
                    &r.loc,
                    format!(
                        "rank {} of deck `{id}` is declared twice (places {} and {} of `ranks`)",
                        r.value,
                        j + 1,
                        i + 1
                    ),
                )
                .with_table(id)
                .with_hint("list each rank once; a deck has at most the 13 ranks A … K"),
            );
        } else {
            seen.insert(&r.value, i);
        }
    }
}

pub(super) fn check(lib: &Library, out: &mut Vec<Diagnostic>) {
    for d in &lib.decks {
        let id = &d.id.value;
        check_ranks(lib, d, out);
        let ranks = d.rank_names();
        let size = ranks.len();
        let declared = if d.ranks.value.iter().map(|r| r.value.as_str()).eq(RANKS) {
            "13 cards in rank order A, 2 … 10, J, Q, K".to_owned()
        } else {
            format!(
                "{size} {} in the declared rank order {}",
                if size == 1 { "card" } else { "cards" },
                ranks.join(", ")
            )
        };
        for (suit, cards) in SUITS.iter().zip(&d.cards) {
            let n = cards.value.len();
            if n < size {
                let missing = ranks[n..].join(", ");
                out.push(
                    Diagnostic::error(
                        Kind::MissingCard,
                        &lib.sources,
                        &cards.loc,
                        format!(
                            "{suit} of deck `{id}` has {n} cards; {missing} {} missing",
                            if n + 1 == size { "is" } else { "are" }
                        ),
                    )
                    .with_table(id)
                    .with_hint(format!("give each suit {declared}")),
                );
            } else if n > size {
                out.push(
                    Diagnostic::error(
                        Kind::DuplicateCard,
                        &lib.sources,
                        &cards.value[size].loc,
                        format!(
                            "{suit} of deck `{id}` has {n} cards, {} more than the {size} declared ranks",
                            n - size
                        ),
                    )
                    .with_table(id)
                    .with_hint(format!(
                        "remove the extra cards; each suit has exactly {declared}"
                    )),
                );
            }
            let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
            for (i, card) in cards.value.iter().enumerate() {
                let rank = ranks.get(i).copied().unwrap_or("extra");
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
                                ranks.get(j).copied().unwrap_or("extra"),
                                card.value
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
            for (card, &rank) in cards.value.iter().zip(&ranks) {
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
                            format!("each of the deck's {} cards is a different obstacle; change one of them", 4 * size),
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
