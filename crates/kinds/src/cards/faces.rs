//! Card faces as data: what one side of one card shows, for the template (`faces[i]` in its inputs) and
//! the Markdown. A deck's 52 obstacle fronts and its back come straight from the checked content.

use serde::Serialize;

use blockprint_content::{Deck, SUITS};

/// One side of a card.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Face {
    /// A road-ahead card of an obstacle deck.
    Obstacle(Obstacle),
    /// A back: the same for every card of a deck or set, so a face-down card tells nothing.
    Back(Back),
    /// A reference card: a title and blocks of text, lists and tables.
    Reference(Reference),
    /// An approach card for the secret simultaneous choice of an interrogation.
    Approach(Approach),
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Obstacle {
    pub deck: String,
    pub rank: String,
    pub suit: String,
    /// ♥ ♣ ♦ ♠
    pub symbol: String,
    /// `red` or `black`.
    pub color: String,
    /// `WIS`, `CHA`, `DEX`, `INT` …
    pub attribute: String,
    /// `Wisdom`
    pub attribute_name: String,
    /// `street smarts` (what the parentheses of the suit's meaning say; may be empty).
    pub gloss: String,
    /// Hot Pursuit lost on a failed roll: A = 1, 2–10 at face value, J, Q, K = 10.
    pub damage: u32,
    /// The damage as the card prints it (`Damage 1`), for the PDF and the Markdown alike.
    pub damage_label: String,
    pub text: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Back {
    /// `deck`, `reference`, `investigator`, `npc`.
    pub style: String,
    pub title: String,
    pub subtitle: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Reference {
    pub title: String,
    /// `1/3` when a subject runs over several cards.
    pub part: String,
    pub blocks: Vec<Block>,
    /// A write-in card: the band and ruled lines, for a house ruling or notes (its title, part and blocks
    /// are empty). It fills a last sheet that would otherwise go mostly to waste.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub write_in: bool,
}

/// A block of a reference card.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Block {
    /// A paragraph; `**bold**` is not interpreted: `lead` is set in bold before `text`.
    Text { lead: String, text: String },
    /// A bulleted list; each item may have a bold lead.
    List { items: Vec<(String, String)> },
    /// A table: header cells, rows, and each column's share of the width (fractions).
    Table {
        columns: Vec<String>,
        widths: Vec<u32>,
        rows: Vec<Vec<String>>,
    },
    /// A small heading inside a card.
    Heading { text: String },
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Approach {
    /// `investigator` or `npc`.
    pub side: String,
    /// Over the name: the side's label (`Investigator approach`).
    pub label: String,
    pub name: String,
    /// What the approach looks like at the table.
    pub blurb: String,
    /// (the other side's approach, what happens) from the content's matrix.
    pub against: Vec<(String, String)>,
    /// The set it belongs to (1-based), printed small so sets can be sorted after cutting.
    pub set: u32,
    /// What the card prints for its set (`Set 3`).
    pub set_label: String,
    /// A write-in card: the side's label and the other side's approaches, with lines to write the name,
    /// the look and the outcomes on (a house approach, or a lost card's replacement). Its name, blurb,
    /// outcomes and set label are empty and its set is 0.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub write_in: bool,
}

/// The word before an obstacle's damage, for a deck whose content gives none (`damage = "…"`).
pub const DAMAGE: &str = "Damage";

/// The words under a deck's title on its back, for a deck whose content gives none (`back = "…"`).
pub const BACK: &str = "Road ahead";

/// The printing order of suits' symbols and ink.
pub fn suit_symbol(suit: &str) -> (&'static str, &'static str) {
    match suit {
        "hearts" => ("♥", "red"),
        "clubs" => ("♣", "black"),
        "diamonds" => ("♦", "red"),
        _ => ("♠", "black"),
    }
}

/// Damage of a rank: A = 1, 2–10 at face value, J, Q, K = 10.
pub fn damage(rank: &str) -> u32 {
    match rank {
        "A" => 1,
        "J" | "Q" | "K" => 10,
        n => n.parse().unwrap_or(10),
    }
}

/// A suit's meaning `Wisdom (street smarts)` split into (abbreviation, name, gloss): `WIS`, `Wisdom`,
/// `street smarts`. The six attributes have their usual abbreviations; another word gives its first three
/// letters.
pub fn attribute(meaning: &str) -> (String, String, String) {
    let (name, gloss) = match meaning.split_once('(') {
        Some((n, rest)) => (n.trim(), rest.trim_end().trim_end_matches(')').trim()),
        None => (meaning.trim(), ""),
    };
    let first = name.split_whitespace().next().unwrap_or("");
    let abbr = match first.to_lowercase().as_str() {
        "strength" => "STR".to_owned(),
        "dexterity" => "DEX".to_owned(),
        "constitution" => "CON".to_owned(),
        "intelligence" => "INT".to_owned(),
        "wisdom" => "WIS".to_owned(),
        "charisma" => "CHA".to_owned(),
        w => w.chars().take(3).collect::<String>().to_uppercase(),
    };
    (abbr, name.to_owned(), gloss.to_owned())
}

/// The meaning of each suit of a deck, in [`SUITS`] order.
pub fn meanings(d: &Deck) -> [&str; 4] {
    [
        &d.suits.hearts,
        &d.suits.clubs,
        &d.suits.diamonds,
        &d.suits.spades,
    ]
}

/// The fronts of a deck (52 for the standard ranks), suit by suit (hearts, clubs, diamonds, spades), each
/// in the deck's declared rank order.
pub fn obstacles(d: &Deck) -> Vec<Obstacle> {
    let mut out = Vec::new();
    for ((suit, cards), meaning) in SUITS.iter().zip(&d.cards).zip(meanings(d)) {
        let (symbol, color) = suit_symbol(suit);
        let (attribute, attribute_name, gloss) = attribute(&String::from(meaning));
        for (rank, card) in d.rank_names().into_iter().zip(&cards.value) {
            out.push(Obstacle {
                deck: String::from(&d.title),
                rank: rank.to_owned(),
                suit: (*suit).to_owned(),
                symbol: symbol.to_owned(),
                color: color.to_owned(),
                attribute: attribute.clone(),
                attribute_name: attribute_name.clone(),
                gloss: gloss.clone(),
                damage: damage(rank),
                damage_label: format!("{} {}", d.damage.as_deref().unwrap_or(DAMAGE), damage(rank)),
                text: String::from(&card.value),
            });
        }
    }
    out
}

/// A deck's back.
pub fn deck_back(d: &Deck) -> Back {
    Back {
        style: "deck".into(),
        title: String::from(&d.title),
        subtitle: d.back.as_deref().unwrap_or(BACK).into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use blockprint_content::RANKS;

    #[test]
    fn attributes_and_damage() {
        assert_eq!(
            attribute("Wisdom (street smarts)"),
            ("WIS".into(), "Wisdom".into(), "street smarts".into())
        );
        assert_eq!(
            attribute("Nerve"),
            ("NER".into(), "Nerve".into(), String::new())
        );
        assert_eq!(
            RANKS.map(damage),
            [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]
        );
    }
}
