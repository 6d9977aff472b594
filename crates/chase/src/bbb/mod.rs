//! Block by Block's card chase (seed 000, "Chases, Escapes"): Hot Pursuit, ability rolls of d6s counting
//! 6s, the road-ahead deck dealt without replacement (suit → attribute, value → Hot Pursuit lost), the
//! quarry's slow-downs, the pursuer following the trail or bridging onto the quarry's route.
//!
//! The geometry the model keeps: the quarry stands on a card with a road-ahead card before it (face up,
//! or face down after a slow-down); the pursuer either stands on the quarry's route with a trail of the
//! face-up cards between it and the quarry's card to meet one by one (an empty trail: the same card), or
//! stands off the quarry's route after the quarry swerved, and must bridge. See [`rulings`] for every
//! point the rules leave open.

use blockprint_content::Library;
use clap::ValueEnum;
use num_bigint::BigInt;
use num_traits::{One, Zero};
use rand_chacha::ChaCha20Rng;

use crate::model::{
    Chance, Check, Ending, Opt, OptionError, P, Policy, Problem, Ruling, System, SystemInfo, Unit,
    applies, are_dice, policy_index, roll_dice,
};
use crate::{Built, Cell, Chase, Grid, GridTable};

mod dice;
mod grid;
mod options;

pub use dice::*;
pub use grid::*;
pub use options::*;

/// Suits in card order (card id = suit × 13 + rank) and the attribute each calls for.
const SUITS: [(&str, &str); 4] = [
    ("♥", "Wisdom"),
    ("♣", "Charisma"),
    ("♦", "Dexterity"),
    ("♠", "Intelligence"),
];
const RANKS: [&str; 13] = [
    "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K",
];
const FULL_DECK: u64 = (1 << 52) - 1;

fn suit(card: u8) -> usize {
    usize::from(card / 13)
}

fn value(card: u8) -> i16 {
    (i16::from(card % 13) + 1).min(10)
}

/// "7♦", "K♠".
pub fn card_name(card: u8) -> String {
    format!("{}{}", RANKS[usize::from(card % 13)], SUITS[suit(card)].0)
}

/// One side of the chase.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Side {
    pub level: i32,
    /// Attribute modifiers in suit order: Wisdom, Charisma, Dexterity, Intelligence.
    pub mods: [i32; 4],
    pub hp: i16,
    pub edge: Edge,
}

impl Side {
    fn check(&self, suit: usize) -> SixesCheck {
        SixesCheck {
            dice: (self.level + self.mods[suit]).max(1) as u32,
            edge: self.edge,
        }
    }
}

/// Which side the player characters are on (they roll Wisdom for who goes first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Who {
    Quarry,
    Pursuer,
}

/// A Block by Block chase.
#[derive(Debug, Clone)]
pub struct Bbb {
    pub quarry: Side,
    pub pursuer: Side,
    pub pcs: Who,
    /// Rounds after which the chase is called off.
    pub rounds: u32,
    /// The suit classes, worked out once.
    pub class: std::sync::OnceLock<[usize; 4]>,
}

/// Where a chase stands between two rounds.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct State {
    /// Cards still in the deck (bit = card id).
    pub deck: u64,
    pub quarry_hp: i16,
    pub pursuer_hp: i16,
    /// The quarry's road-ahead card and whether it lies face down.
    pub ahead: u8,
    pub ahead_down: bool,
    /// On the quarry's route: the cards between the pursuer and the quarry's card, next first (empty:
    /// the same card). Off it: empty.
    pub trail: Vec<u8>,
    /// The pursuer is on another route and must bridge.
    pub off_route: bool,
    /// The quarry's slow-downs in a row.
    pub streak: u8,
    /// The quarry acts first each round.
    pub quarry_first: bool,
}

const ESCAPED: usize = 0;
const BOXED_IN: usize = 1;
const PURSUER_OUT: usize = 2;

/// The house rulings the model rests on (the kit lists them with its own).
pub fn rulings() -> Vec<Ruling> {
    vec![
        Ruling::new(
            "bbb.chase.ruling.catching",
            "When the pursuer catches the quarry",
            "Sharing the quarry's card is not an ending by itself: it stops the quarry slowing down, so it must take the road ahead or swerve. The chase ends only as the rules list: three slow-downs in a row, or a side at 0 Hot Pursuit.",
            "The rules never say what catching is; their endings are slowing down three times, stopping voluntarily and 0 Hot Pursuit, and sharing a card is the only thing they say the pursuer's position does.",
        ),
        Ruling::new(
            "bbb.chase.ruling.turns",
            "Turn order",
            "At the start the player characters' side makes one plain Wisdom ability roll, without the chase's advantage or disadvantage: on a success that side acts first in every round, otherwise second. A round is one turn of each side.",
            "The rules order action scenes by an ability roll, Wisdom for chases, PCs succeeding going before their opponents; advantage and disadvantage belong to the chase rolls that meet the road, and this roll comes before them.",
        ),
        Ruling::new(
            "bbb.chase.ruling.face_down",
            "A road ahead turned face down",
            "A slowed-down road-ahead card stays where it is; when the quarry next takes the road ahead it is turned face up and met. The deck is not dealt again for it.",
            "The rules turn the card face down and keep the quarry on its card, but never say what becomes of the card.",
        ),
        Ruling::new(
            "bbb.chase.ruling.trail",
            "Following and bridging",
            "On the quarry's route the pursuer meets, one per turn, each face-up card between it and the quarry's card (success: it moves onto that card; failure: it loses the card's value). After the quarry swerves onto a new route the pursuer bridges: it deals a card and meets it, and on a success stands on the quarry's card. On the quarry's own card the pursuer keeps pace without a roll.",
            "The rules let the pursuer follow flipped cards and bridge to the quarry's route but give no distances; this reads every card as one stretch of road.",
        ),
        Ruling::new(
            "bbb.chase.ruling.pursuer_presses",
            "The pursuer always presses on",
            "The pursuer always follows the trail or bridges; it never strikes out on a route of its own or slows down.",
            "In this model neither of those brings it closer or costs the quarry anything, so no pursuer gains by them.",
        ),
        Ruling::new(
            "bbb.chase.ruling.empty_deck",
            "When the deck runs out",
            "Every card not on the table (the road ahead and the trail) is shuffled into a new deck.",
            "The rules deal from one deck and never say what happens when it is spent.",
        ),
        Ruling::new(
            "bbb.chase.ruling.swerve",
            "A failed swerve",
            "A quarry that fails the challenge of a swerve loses the card's value and stays on its route; the swerve card is discarded.",
            "The rules say the quarry must take the swerve card's challenge at once but not where a failure leaves it; a failure elsewhere never moves anyone.",
        ),
    ]
}

/// The policies, the default first.
pub fn policies() -> Vec<Policy> {
    vec![
        Policy::new(
            "slow",
            "The quarry slows down whenever it may (three in a row and it escapes); sharing a card with the pursuer, it takes the road ahead. The pursuer always presses on.",
        ),
        Policy::new(
            "swerve",
            "The quarry slows down whenever it may; sharing a card with the pursuer, it swerves onto a new route. The pursuer always presses on.",
        ),
        Policy::new(
            "unaware",
            "A quarry that does not know it is followed (the rules' one-sided pursuit): it always takes the road ahead and never slows down or swerves. The pursuer always presses on.",
        ),
    ]
}

impl Bbb {
    fn side(&self, who: Who) -> &Side {
        match who {
            Who::Quarry => &self.quarry,
            Who::Pursuer => &self.pursuer,
        }
    }

    /// The class of each suit: suits giving both sides the same dice share the lowest such suit.
    fn suit_class(&self) -> [usize; 4] {
        if let Some(c) = self.class.get() {
            return *c;
        }
        let profile = |u: usize| (self.quarry.check(u).dice, self.pursuer.check(u).dice);
        let c: [usize; 4] =
            std::array::from_fn(|u| (0..=u).find(|&v| profile(v) == profile(u)).unwrap_or(u));
        let _ = self.class.set(c);
        c
    }

    /// The cards of `deck` in groups the rules cannot tell apart (same suit class, same value), in a fixed
    /// order: by class, then value; within a group by card id.
    fn groups(&self, deck: u64) -> Vec<Vec<u8>> {
        let class = self.suit_class();
        let mut groups: Vec<((usize, i16), Vec<u8>)> = Vec::new();
        for c in 0..52u8 {
            if deck & (1 << c) == 0 {
                continue;
            }
            let key = (class[suit(c)], value(c));
            match groups.iter_mut().find(|(k, _)| *k == key) {
                Some((_, v)) => v.push(c),
                None => groups.push((key, vec![c])),
            }
        }
        groups.sort_by_key(|(k, _)| *k);
        groups.into_iter().map(|(_, v)| v).collect()
    }

    /// Deal one card off the deck (reshuffling the discards into it when it is empty).
    fn deal(&self, s: &mut State, who: &str, what: &str, chance: &mut dyn Chance) -> u8 {
        if s.deck == 0 {
            applies("bbb.chase.ruling.empty_deck");
            let mut table = 1u64 << s.ahead;
            for &c in &s.trail {
                table |= 1 << c;
            }
            s.deck = FULL_DECK & !table;
            chance.note(&|| {
                "The deck is spent: every card not on the table is shuffled into a new deck.".into()
            });
        }
        let class = self.suit_class();
        let key = |c: u8| class[suit(c)] * 10 + usize::from((value(c) - 1) as u8);
        let mut sizes = [0usize; 40];
        let mut bits = s.deck;
        while bits != 0 {
            let c = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            sizes[key(c)] += 1;
        }
        let keys: Vec<usize> = (0..40).filter(|&k| sizes[k] > 0).collect();
        let nonzero: Vec<usize> = keys.iter().map(|&k| sizes[k]).collect();
        let (g, m) = chance.draw_grouped(who, what, &nonzero);
        let mut bits = s.deck;
        let mut seen = 0;
        let card = loop {
            let c = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            if key(c) == keys[g] {
                if seen == m {
                    break c;
                }
                seen += 1;
            }
        };
        s.deck &= !(1u64 << card);
        chance.note(&|| {
            format!(
                "{who} deals {}: {} ({} Hot Pursuit on a failure)",
                card_name(card),
                SUITS[suit(card)].1,
                value(card)
            )
        });
        card
    }

    /// A side meets a card's challenge: true on a success; a failure costs the card's value.
    fn meet(&self, s: &mut State, who: Who, card: u8, chance: &mut dyn Chance) -> bool {
        let side = self.side(who);
        let name = who_name(who);
        let what = format!("{} against {}", SUITS[suit(card)].1, card_name(card));
        let ok = chance.roll(name, &what, &side.check(suit(card))) == 1;
        if !ok {
            let hp = match who {
                Who::Quarry => &mut s.quarry_hp,
                Who::Pursuer => &mut s.pursuer_hp,
            };
            *hp -= value(card);
            let left = *hp;
            chance.note(&|| format!("{name} loses {} Hot Pursuit ({left} left)", value(card)));
            if left <= 0 {
                let face = chance.roll(
                    name,
                    "on Chase Outcomes at 0 Hot Pursuit",
                    &Die { sides: 6 },
                );
                chance.note(&|| {
                    format!(
                        "{name} is at 0 Hot Pursuit: {}",
                        OUTCOMES[(face - 1) as usize]
                    )
                });
            }
        }
        ok
    }

    fn quarry_turn(&self, s: &mut State, policy: usize, chance: &mut dyn Chance) {
        // Sharing the quarry's card only stops it slowing down.
        applies("bbb.chase.ruling.catching");
        let same_card = !s.off_route && s.trail.is_empty();
        let action = match (policy, same_card) {
            (2, _) => Action::Take,
            (_, false) => Action::Slow,
            (0, true) => Action::Take,
            _ => Action::Swerve,
        };
        match action {
            Action::Slow => {
                s.streak += 1;
                s.ahead_down = true;
                let (n, card) = (s.streak, s.ahead);
                chance.note(&|| {
                    format!(
                        "the quarry slows down ({n} in a row), turning {} face down",
                        card_name(card)
                    )
                });
            }
            Action::Take => {
                s.streak = 0;
                // A face-down road ahead is turned up and met; no new card is dealt for it.
                applies("bbb.chase.ruling.face_down");
                s.ahead_down = false;
                let card = s.ahead;
                chance.note(&|| format!("the quarry takes the road ahead, {}", card_name(card)));
                if self.meet(s, Who::Quarry, card, chance) {
                    if !s.off_route {
                        s.trail.push(card);
                    }
                    s.ahead = self.deal(s, "the quarry", "the road ahead", chance);
                }
            }
            Action::Swerve => {
                s.streak = 0;
                chance.note(&|| "the quarry swerves".into());
                let card = self.deal(s, "the quarry", "a swerve", chance);
                // A failed swerve leaves the quarry on its route; the swerve card is discarded.
                applies("bbb.chase.ruling.swerve");
                if self.meet(s, Who::Quarry, card, chance) {
                    s.off_route = true;
                    s.trail.clear();
                    s.ahead_down = false;
                    s.ahead = self.deal(s, "the quarry", "the road ahead", chance);
                }
            }
        }
    }

    fn pursuer_turn(&self, s: &mut State, chance: &mut dyn Chance) {
        applies("bbb.chase.ruling.pursuer_presses");
        applies("bbb.chase.ruling.trail");
        if s.off_route {
            chance.note(&|| "the pursuer swerves to bridge onto the quarry's route".into());
            let card = self.deal(s, "the pursuer", "a bridge", chance);
            if self.meet(s, Who::Pursuer, card, chance) {
                s.off_route = false;
                s.trail.clear();
            }
        } else if let Some(&card) = s.trail.first() {
            chance.note(&|| format!("the pursuer follows onto {}", card_name(card)));
            if self.meet(s, Who::Pursuer, card, chance) {
                s.trail.remove(0);
            }
        } else {
            chance.note(&|| "the pursuer keeps pace on the quarry's card".into());
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Action {
    Take,
    Slow,
    Swerve,
}

fn who_name(who: Who) -> &'static str {
    match who {
        Who::Quarry => "the quarry",
        Who::Pursuer => "the pursuer",
    }
}

/// The Chase Outcomes table (1d6), in our words.
const OUTCOMES: [&str; 6] = [
    "1, regains all Hot Pursuit",
    "2, regains half its Hot Pursuit",
    "3, regains 1 Hot Pursuit",
    "4, loses 1d6 from STR, DEX or CON",
    "5, loses the lower of 2d10 from STR, DEX or CON",
    "6, loses 1d10 from STR, DEX or CON",
];

impl System for Bbb {
    type State = State;

    fn info(&self) -> SystemInfo {
        SystemInfo {
            id: "bbb".into(),
            name: "Block by Block".into(),
            unit: Unit::new("round", "rounds"),
            endings: vec![
                Ending::new("escaped", "The quarry escapes: three slow-downs in a row"),
                Ending::new(
                    "boxed-in",
                    "The quarry is at 0 Hot Pursuit: boxed in or cornered",
                ),
                Ending::new(
                    "pursuer-out",
                    "The pursuer is at 0 Hot Pursuit: the quarry gets away",
                ),
            ],
            policies: policies(),
            rulings: rulings(),
        }
    }

    fn start(&self, chance: &mut dyn Chance) -> State {
        let mut s = State {
            deck: FULL_DECK,
            quarry_hp: self.quarry.hp,
            pursuer_hp: self.pursuer.hp,
            ahead: 0,
            ahead_down: false,
            trail: Vec::new(),
            off_route: false,
            streak: 0,
            quarry_first: true,
        };
        let pcs = self.side(self.pcs);
        applies("bbb.chase.ruling.turns");
        let first = chance.roll(
            who_name(self.pcs),
            "Wisdom for who goes first",
            &SixesCheck {
                dice: (pcs.level + pcs.mods[0]).max(1) as u32,
                edge: Edge::Normal,
            },
        ) == 1;
        s.quarry_first = first == (self.pcs == Who::Quarry);
        let c1 = self.deal(
            &mut s,
            "the pursuer",
            "the pursuer's road ahead (the quarry is already past it)",
            chance,
        );
        s.trail.push(c1);
        s.ahead = self.deal(&mut s, "the quarry", "the road ahead", chance);
        s
    }

    fn ending(&self, s: &State) -> Option<usize> {
        if s.quarry_hp <= 0 {
            Some(BOXED_IN)
        } else if s.pursuer_hp <= 0 {
            Some(PURSUER_OUT)
        } else if s.streak >= 3 {
            Some(ESCAPED)
        } else {
            None
        }
    }

    fn step(&self, state: &State, policy: usize, chance: &mut dyn Chance) -> State {
        let mut s = state.clone();
        for turn in 0..2 {
            if self.ending(&s).is_some() {
                break;
            }
            let quarry = (turn == 0) == s.quarry_first;
            if quarry {
                self.quarry_turn(&mut s, policy, chance);
            } else {
                self.pursuer_turn(&mut s, chance);
            }
        }
        s
    }

    fn describe(&self, s: &State) -> String {
        let ahead = format!(
            "{}{}",
            card_name(s.ahead),
            if s.ahead_down { " face down" } else { "" }
        );
        let pursuer = if s.off_route {
            "off the quarry's route".to_string()
        } else if s.trail.is_empty() {
            "on the quarry's card".to_string()
        } else {
            let cards: Vec<String> = s.trail.iter().map(|&c| card_name(c)).collect();
            format!("{} behind ({})", cards.len(), cards.join(", "))
        };
        format!(
            "quarry {} Hot Pursuit, road ahead {ahead}, {} slow-down{} in a row; pursuer {} Hot Pursuit, {pursuer}; {} cards in the deck",
            s.quarry_hp,
            s.streak,
            if s.streak == 1 { "" } else { "s" },
            s.pursuer_hp,
            s.deck.count_ones()
        )
    }

    fn max_units(&self) -> u32 {
        self.rounds
    }

    fn canonical(&self, s: State) -> State {
        canonical(self, s)
    }

    fn too_big(&self) -> Option<String> {
        (self.rounds > 1).then(|| {
            "every order of a 52-card deck dealt without replacement, beyond its limits after one round (measured, 10 Hot Pursuit a side: two rounds 1570 states and 0.4 s, three 12096 states and 3.8 s, four 79825 states and 38 s; the states grow about sevenfold a round, and many chases run six rounds or more)".to_string()
        })
    }
}

/// Rounds after which a chase is called off, unless `--rounds` says otherwise.
pub const MAX_ROUNDS: u32 = 60;

/// The representative of `s` under the symmetries of the rules: all that matters of a card is its value
/// and its suit's class (suits giving both sides the same dice), so each group of such cards is relabelled
/// — the table's cards of a group become its first members in table order, the deck's its last members —
/// and equal situations become equal states.
fn canonical(b: &Bbb, s: State) -> State {
    let class = b.suit_class();
    // Every (class, value) group's members in a fixed order: suits of the class, then ranks.
    let members = |key: (usize, i16)| -> Vec<u8> {
        (0..52u8)
            .filter(|&c| class[suit(c)] == key.0 && value(c) == key.1)
            .collect()
    };
    let key = |c: u8| (class[suit(c)], value(c));
    let mut used: Vec<((usize, i16), usize)> = Vec::new();
    let mut place = |c: u8| -> u8 {
        let k = key(c);
        let j = match used.iter_mut().find(|(kk, _)| *kk == k) {
            Some((_, n)) => {
                *n += 1;
                *n - 1
            }
            None => {
                used.push((k, 1));
                0
            }
        };
        members(k)[j]
    };
    let trail: Vec<u8> = s.trail.iter().map(|&c| place(c)).collect();
    let ahead = place(s.ahead);
    let mut deck = 0u64;
    for g in b.groups(s.deck) {
        let all = members(key(g[0]));
        for &c in &all[all.len() - g.len()..] {
            deck |= 1 << c;
        }
    }
    State {
        deck,
        ahead,
        trail,
        ..s
    }
}
