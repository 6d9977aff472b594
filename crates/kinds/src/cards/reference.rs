//! The Block by Block reference cards (the approach cards are [`super::approach`]). The procedures are the
//! rules of the game told briefly in blockprint's own words, written once as the kit's page
//! `content/bbb/kit/reference-cards.md` (one `##` heading per card); every table, die and modifier comes
//! from the checked content and is placed where a code span of the page names it, and every number of
//! odds or mean from the exact dice engine ([`blockprint_dice`]) or the checker's row odds (made by the
//! same engine).

use blockprint_dice as dice;
use blockprint_dice::words::spoken_result;
use num_traits::{One, Zero};

use super::faces::{self, Back, Block, Face, Reference};
use super::{Card, Checked};
use crate::Requirements;
use crate::error::{Problem, invariant, unchecked};
use blockprint_content::error::{Error, Result};
use blockprint_content::prose;
use blockprint_dice::{self, BigRational};

/// The content the cards read.
pub const CHASE_OUTCOME: &str = "bbb.chase.outcome";
pub const LAWYER: &str = "bbb.interrogation.lawyer";
pub const FIGHT_DAMAGE: &str = "bbb.fight.damage";
pub const TURF_DAMAGE: &str = "bbb.interrogation.damage";
pub const MATRIX: &str = "bbb.interrogation.matrix";
pub const CLOSING: &str = "bbb.casework.closing_modifiers";
pub const SENTENCING: &str = "bbb.casework.sentencing";
pub const CITY_STREETS: &str = "bbb.chase.city_streets";
/// The closing modifier per Break.
pub const PER_BREAK: &str = "Each Break in the case";

/// Pool sizes the legwork odds card lists.
pub const POOLS: std::ops::RangeInclusive<u32> = 1..=6;
/// Breaks the DA card lists (0 to this).
pub const BREAKS: u32 = 5;

pub fn requirements() -> Requirements {
    Requirements {
        tables: vec![CHASE_OUTCOME.into(), LAWYER.into()],
        lookups: vec![
            FIGHT_DAMAGE.into(),
            TURF_DAMAGE.into(),
            MATRIX.into(),
            CLOSING.into(),
            SENTENCING.into(),
        ],
        int_keys: vec![(CLOSING.into(), PER_BREAK.into())],
        prose: vec![crate::kits::prose_needs(
            GAME,
            REFERENCE_PAGE,
            &reference_needs(),
        )],
        slots: vec![reference_slots()],
        ..Requirements::default()
    }
}

/// What the reference cards compute and place where the page's code spans name them, by role (see
/// [`Slots`]): `check` refuses a span naming anything else.
pub const REFERENCE_VALUES: [&str; 5] = [
    "outcome-dice",
    "lawyer-dice",
    "lawyer-odds",
    "lawyer-result",
    "per-break",
];
pub const REFERENCE_COLUMNS: [&str; 2] = ["outcome-dice", "sentences"];
pub const REFERENCE_ROWS: [&str; 7] = [
    "suits",
    "outcome",
    "matrix",
    "turf-damage",
    "fight-damage",
    "pool-odds",
    "da-odds",
];
pub const REFERENCE_BLOCKS: [&str; 1] = ["closing-modifiers"];

/// The requirement that the reference cards' page names only what the cards compute.
pub fn reference_slots() -> blockprint_content::check::requires::Slots {
    let own = |xs: &[&str]| xs.iter().map(|x| (*x).to_owned()).collect();
    blockprint_content::check::requires::Slots {
        game: GAME.into(),
        page: REFERENCE_PAGE.into(),
        parts: Vec::new(),
        values: own(&REFERENCE_VALUES),
        columns: own(&REFERENCE_COLUMNS),
        rows: own(&REFERENCE_ROWS),
        blocks: own(&REFERENCE_BLOCKS),
    }
}

fn dist(expr: &str) -> Result<dice::Dist> {
    crate::kits::uwsp::dice_dist(expr)
}

/// P(value >= k) of a distribution.
pub fn at_least(d: &dice::Dist, k: i64) -> BigRational {
    d.outcomes()
        .into_iter()
        .filter(|(v, _)| *v >= BigRational::from_integer(k.into()))
        .fold(BigRational::zero(), |a, (_, p)| a + p)
}

/// Odds for people: `65%` when exact in whole percent, else `11/36 (30.6%)`.
pub fn odds(q: &BigRational) -> String {
    let pct = q * BigRational::from_integer(100.into());
    if pct.is_integer() {
        format!("{}%", pct.to_integer())
    } else {
        format!("{} ({:.1}%)", dice::fraction_reduced(q), dice::approx(&pct))
    }
}

/// The largest denominator of a fraction a player card may print (a d12's single face, 1/12): a short
/// exact fraction reads at a glance; 31031/46656 does not.
pub const SHORT_DENOMINATOR: u32 = 12;

/// A percentage for a player card: whole when exact (`65%`), else one decimal (`30.6%`); never rounded to
/// a certainty or an impossibility it is not (`over 99.9%`, `under 0.1%`).
pub fn percent(q: &BigRational) -> String {
    let pct = q * BigRational::from_integer(100.into());
    if pct.is_integer() {
        return format!("{}%", pct.to_integer());
    }
    let a = dice::approx(&pct);
    if a >= 99.95 {
        "over 99.9%".into()
    } else if a < 0.05 {
        "under 0.1%".into()
    } else {
        format!("{a:.1}%")
    }
}

/// Whether `q` is a fraction short enough for a player card (denominator at most [`SHORT_DENOMINATOR`]).
fn short(q: &BigRational) -> bool {
    let d = q.reduced();
    *d.denom() <= num_bigint::BigInt::from(SHORT_DENOMINATOR)
}

/// Odds as a player card prints a column of them: when every one is a whole percentage or a short exact
/// fraction, `1/6 (16.7%)` (or `65%`); otherwise percentages alone (`30.6%`), so a column reads one way.
pub fn player_odds(column: &[BigRational]) -> Vec<String> {
    let fractions = column.iter().all(short);
    column
        .iter()
        .map(|q| {
            let whole = (q * BigRational::from_integer(100.into())).is_integer();
            if fractions && !whole {
                format!("{} ({})", dice::fraction(q), percent(q))
            } else {
                percent(q)
            }
        })
        .collect()
}

/// A mean for people: two decimals, trailing zeros dropped (`3.5`, `4.2`, `6.11`).
pub fn mean(q: &BigRational) -> String {
    let s = format!("{:.2}", dice::approx(q));
    s.trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// What the legwork odds card prints for a pool of `n` dice, exact: at least one Progress (a 6), at least
/// one hunch (a 1), and at least one Progress when every hunch is followed up (a 1 then counts too).
#[derive(Debug, Clone, serde::Serialize)]
pub struct PoolOdds {
    pub dice: u32,
    pub progress: String,
    pub hunch: String,
    pub followed: String,
}

/// Exact legwork odds for pools of `n` d6.
pub fn pool_odds(n: u32) -> Result<(BigRational, BigRational, BigRational)> {
    let progress = at_least(&dist(&format!("{n}d6cs>=6"))?, 1);
    let hunch = at_least(&dist(&format!("{n}d6cs<=1"))?, 1);
    // Following every hunch: a hunch can only be followed when some die shows a 1, and once it is, that
    // 1 is a Progress. So the roll gives at least one Progress exactly when some die first shows a 1 or
    // a 6; the reroll of the 2–5s adds Progress but never decides "at least one". From one d6's
    // distribution: q = P(2–5), and no Progress has probability q^n.
    let d6 = dist("1d6")?;
    let q: BigRational = d6
        .outcomes()
        .into_iter()
        .filter(|(v, _)| {
            *v >= BigRational::from_integer(2.into()) && *v <= BigRational::from_integer(5.into())
        })
        .fold(BigRational::zero(), |a, (_, p)| a + p);
    let mut none = BigRational::one();
    for _ in 0..n {
        none *= &q;
    }
    Ok((progress, hunch, BigRational::one() - none))
}

/// P(1d20 + bonus >= target).
pub fn closing_odds(bonus: i64, target: i64) -> Result<BigRational> {
    Ok(at_least(&dist("1d20")?, target - bonus))
}

/// The game whose kit holds the cards' prose, and the two pages (`content/bbb/kit/<page>.md`).
pub const GAME: &str = "bbb";
pub const REFERENCE_PAGE: &str = "reference-cards";

/// The reference cards the page must have, by their headings' anchors (`## Chase 1/3` is `chase-13`).
pub const REFERENCE_CARDS: [&str; 9] = [
    "chase-13",
    "chase-23",
    "chase-33",
    "interrogation-12",
    "interrogation-22",
    "fight",
    "legwork-12",
    "legwork-22",
    "the-da",
];

/// The part of a cards page with the words every card carries besides its own (its back's, its labels),
/// by its heading's anchor (`## Card labels`): a list item per label, named in bold.
pub const LABELS: &str = "card-labels";

/// The labels the reference cards' part [`LABELS`] must give, by bold name, each with what it is for.
pub const REFERENCE_LABELS: [(&str, &str); 2] = [
    ("Back", "the title on every card's back"),
    ("Back subtitle", "under the back's title"),
];

/// What the reference cards' page must have: a heading per card of [`REFERENCE_CARDS`] and [`LABELS`].
pub fn reference_needs() -> Vec<&'static str> {
    REFERENCE_CARDS.iter().copied().chain([LABELS]).collect()
}

/// The labels of a page's part [`LABELS`] (its card blocks), in the order of `names`: each list item's
/// words after its bold name (the colon after the name optional, letter case ignored). A name missing is
/// an error naming the page and the names it needs.
pub(super) fn labels(page: &str, names: &[(&str, &str)], blocks: &[Block]) -> Result<Vec<String>> {
    let mut given = std::collections::BTreeMap::new();
    for b in blocks {
        if let Block::List { items } = b {
            for (lead, text) in items {
                let name = lead.trim().trim_end_matches(':').trim().to_lowercase();
                given.insert(name, text.trim().to_owned());
            }
        }
    }
    names
        .iter()
        .map(|(name, what)| {
            given
                .get(&name.to_lowercase())
                .filter(|t| !t.is_empty())
                .cloned()
                .ok_or_else(|| {
                    Problem::CardLabel {
                        page: format!("content/{GAME}/kit/{page}.md"),
                        name: (*name).to_owned(),
                        what: (*what).to_owned(),
                        names: names.iter().map(|(n, _)| (*n).to_owned()).collect(),
                    }
                    .into()
                })
        })
        .collect()
}

/// What the cards compute from the tables, by the name a code span gives it in the cards' prose: a
/// value inside a sentence or heading, a table's columns (a header cell), its rows and column widths
/// (a row that is only the name), or a whole block (a paragraph that is only the name).
pub(super) struct Slots {
    /// The page whose code spans name the slots (for errors).
    page: &'static str,
    values: std::collections::BTreeMap<&'static str, String>,
    columns: std::collections::BTreeMap<&'static str, Vec<String>>,
    rows: std::collections::BTreeMap<&'static str, (Vec<u32>, Vec<Vec<String>>)>,
    blocks: std::collections::BTreeMap<&'static str, Block>,
}

fn unknown(page: &str, slot: &str, as_what: &str) -> Error {
    Problem::UnknownSlot {
        page: format!("content/{GAME}/kit/{page}.md"),
        slot: slot.into(),
        as_what: as_what.into(),
    }
    .into()
}

impl Slots {
    pub(super) fn new(page: &'static str) -> Self {
        Slots {
            page,
            values: Default::default(),
            columns: Default::default(),
            rows: Default::default(),
            blocks: Default::default(),
        }
    }

    /// Inlines as card text: code spans are filled with their values, emphasis keeps only its words.
    fn text(&self, xs: &[prose::Inline]) -> Result<String> {
        let mut out = String::new();
        for x in xs {
            match x {
                prose::Inline::Text { text } => out.push_str(text),
                prose::Inline::Code { text } => out.push_str(
                    self.values
                        .get(text.as_str())
                        .ok_or_else(|| unknown(self.page, text, "a value"))?,
                ),
                prose::Inline::Strong { content }
                | prose::Inline::Emph { content }
                | prose::Inline::Link { content, .. }
                | prose::Inline::Url { content, .. } => out.push_str(&self.text(content)?),
                prose::Inline::Break => out.push(' '),
                prose::Inline::Ref { id, .. } => out.push_str(id),
            }
        }
        Ok(out)
    }

    /// A paragraph or list item as (lead, text): a bold start is the lead, set before the rest.
    pub(super) fn led(&self, xs: &[prose::Inline]) -> Result<(String, String)> {
        match xs.split_first() {
            Some((prose::Inline::Strong { content }, rest)) => Ok((
                format!("{} ", self.text(content)?),
                self.text(rest)?.trim_start().to_owned(),
            )),
            _ => Ok((String::new(), self.text(xs)?)),
        }
    }

    /// The card blocks of one card's prose.
    pub(super) fn blocks(&self, bs: &[prose::Block]) -> Result<Vec<Block>> {
        let only_code = |xs: &[prose::Inline]| match xs {
            [prose::Inline::Code { text }] => Some(text.clone()),
            _ => None,
        };
        let mut out = Vec::new();
        for b in bs {
            match b {
                prose::Block::Para { content } => match only_code(content) {
                    Some(slot) => out.push(
                        self.blocks
                            .get(slot.as_str())
                            .cloned()
                            .ok_or_else(|| unknown(self.page, &slot, "a block"))?,
                    ),
                    None => {
                        let (lead, text) = self.led(content)?;
                        out.push(Block::Text { lead, text });
                    }
                },
                prose::Block::Heading { content, .. } => out.push(Block::Heading {
                    text: self.text(content)?,
                }),
                prose::Block::List { items, .. } => {
                    let mut list = Vec::new();
                    for item in items {
                        let mut inlines = Vec::new();
                        for b in item {
                            if let prose::Block::Para { content } = b {
                                inlines.extend(content.iter().cloned());
                            }
                        }
                        list.push(self.led(&inlines)?);
                    }
                    out.push(Block::List { items: list });
                }
                prose::Block::Grid { header, rows } => {
                    let mut columns = Vec::new();
                    for h in header {
                        match only_code(h).and_then(|s| self.columns.get(s.as_str())) {
                            Some(cs) => columns.extend(cs.iter().cloned()),
                            None => columns.push(self.text(h)?),
                        }
                    }
                    let filled = match rows.as_slice() {
                        [row] => row.first().and_then(|c| only_code(c)),
                        _ => None,
                    };
                    let (widths, rows) = match filled {
                        Some(slot) => self
                            .rows
                            .get(slot.as_str())
                            .cloned()
                            .ok_or_else(|| unknown(self.page, &slot, "table rows"))?,
                        None => {
                            let mut written = Vec::new();
                            for r in rows {
                                written.push(
                                    r.iter().map(|c| self.text(c)).collect::<Result<Vec<_>>>()?,
                                );
                            }
                            (vec![1; columns.len()], written)
                        }
                    };
                    out.push(Block::Table {
                        columns,
                        widths,
                        rows,
                    });
                }
                // Quotes, rules and code blocks have no place on a card.
                _ => {}
            }
        }
        Ok(out)
    }
}

fn missing(what: &str) -> Error {
    crate::kits::uwsp::missing("cards", what)
}

/// A card's heading as its title and part: `Chase 1/3` is `Chase` and `1/3`; `The DA` has no part.
fn title_and_part(heading: &str) -> (String, String) {
    match heading.rsplit_once(' ') {
        Some((title, part))
            if part.contains('/') && part.chars().all(|c| c.is_ascii_digit() || c == '/') =>
        {
            (title.trim().to_owned(), part.to_owned())
        }
        _ => (heading.trim().to_owned(), String::new()),
    }
}

/// The reference cards: faces, cards (front, back) and what the Markdown shows. Their words are the
/// kit's page `reference-cards` (one `##` per card, in page order, and the back's words in its part
/// `## Card labels`); the tables, dice and odds are
/// computed here and placed where the page's code spans name them.
pub fn reference_cards(cx: &Checked) -> Result<(Vec<Face>, Vec<Card>, serde_json::Value)> {
    let lib = &cx.lib;
    let q = |s: &str| String::from(s);
    let lookup = |id: &str| lib.lookup(id).ok_or_else(|| missing(id));
    let tab = |id: &str| lib.table(id).ok_or_else(|| missing(id));
    let page = crate::kits::prose(cx, GAME, REFERENCE_PAGE, &reference_needs())?;
    let mut slots = Slots::new(REFERENCE_PAGE);

    // The suits' attributes as the City Streets deck gives them (or the first deck; none: no suit rows).
    let deck = lib.deck(CITY_STREETS).or(lib.decks.first());
    let suits: Vec<Vec<String>> = match deck {
        Some(deck) => blockprint_content::SUITS
            .iter()
            .zip(faces::meanings(deck))
            .map(|(s, m)| {
                let (sym, _) = faces::suit_symbol(s);
                let (abbr, name, gloss) = faces::attribute(&q(m));
                vec![sym.to_owned(), format!("{abbr}: {name}"), gloss]
            })
            .collect(),
        None => Vec::new(),
    };
    slots.rows.insert("suits", (vec![2, 5, 5], suits));

    // The chase's end: the outcome table's exact odds.
    let outcome = tab(CHASE_OUTCOME)?;
    let mut chances = Vec::new();
    for i in 0..outcome.rows.len() {
        let p = blockprint_content::check::row_probability(&cx.report, &outcome.id.value, i)
            .ok_or_else(|| unchecked(format!("has no odds for {CHASE_OUTCOME} row {i}")))?;
        chances.push(p.clone());
    }
    let mut rows = Vec::new();
    for (r, chance) in outcome.rows.iter().zip(player_odds(&chances)) {
        rows.push(vec![
            r.on.value.clone(),
            chance,
            q(&spoken_result(&r.result.value)),
        ]);
    }
    slots
        .values
        .insert("outcome-dice", outcome.dice.value.clone());
    slots
        .columns
        .insert("outcome-dice", vec![outcome.dice.value.clone()]);
    slots.rows.insert("outcome", (vec![2, 4, 8], rows));

    // The interrogation matrix, straight from the content.
    let matrix = lookup(MATRIX)?;
    let rows: Vec<Vec<String>> = matrix
        .entries
        .iter()
        .map(|e| {
            let (a, b) = e.key.value.split_once(" vs ").unwrap_or((&e.key.value, ""));
            vec![q(a), q(b), q(&e.value.value.to_string())]
        })
        .collect();
    slots.rows.insert("matrix", (vec![9, 8, 17], rows));

    // Damage by turf (means from the engine), and the lawyer.
    let turf = lookup(TURF_DAMAGE)?;
    let mut rows = Vec::new();
    for e in &turf.entries {
        let dice_text = e.value.value.to_string();
        let d = dist(&dice_text)?;
        rows.push(vec![
            q(&e.key.value),
            format!("{dice_text} + CHA"),
            mean(&d.mean()),
        ]);
    }
    slots.rows.insert("turf-damage", (vec![4, 4, 2], rows));
    let lawyer = tab(LAWYER)?;
    slots
        .values
        .insert("lawyer-dice", lawyer.dice.value.clone());
    // The row where counsel arrives: the one tagged `lawyer`; in content written before the tag, the one
    // whose result says the lawyer shows; failing both, the table's first row, as the source orders it. Any
    // table `check` accepts fills the card, whatever its rows say.
    let shows = lawyer
        .rows
        .iter()
        .position(|r| r.has_tag("lawyer"))
        .or_else(|| {
            lawyer
                .rows
                .iter()
                .position(|r| r.result.value.to_lowercase().contains("lawyer shows"))
        })
        .unwrap_or(0);
    if let (Some(r), Some(p)) = (
        lawyer.rows.get(shows),
        blockprint_content::check::row_probability(&cx.report, &lawyer.id.value, shows),
    ) {
        slots.values.insert(
            "lawyer-odds",
            player_odds(std::slice::from_ref(p)).remove(0),
        );
        slots
            .values
            .insert("lawyer-result", q(&spoken_result(&r.result.value)));
    }

    // Fights: damage with exact means.
    let fight = lookup(FIGHT_DAMAGE)?;
    let mut rows = Vec::new();
    for e in &fight.entries {
        let dice_text = e.value.value.to_string();
        let d = dist(&dice_text)?;
        // Said in words where it is more than plain dice (`1d6!` is "one exploding d6").
        let said = match blockprint_dice::words::dice_words(&dice_text) {
            Some(w) if blockprint_render::pages::reader::needs_words(&dice_text) => w,
            _ => dice_text,
        };
        rows.push(vec![q(&e.key.value), said, mean(&d.mean())]);
    }
    slots.rows.insert("fight-damage", (vec![6, 3, 2], rows));

    // Legwork odds by pool size.
    let (mut progress, mut hunch, mut followed) = (Vec::new(), Vec::new(), Vec::new());
    for n in POOLS {
        let (p, h, f) = pool_odds(n)?;
        progress.push(p);
        hunch.push(h);
        followed.push(f);
    }
    let (progress, hunch, followed) = (
        player_odds(&progress),
        player_odds(&hunch),
        player_odds(&followed),
    );
    let rows: Vec<Vec<String>> = POOLS
        .zip(progress.into_iter().zip(hunch).zip(followed))
        .map(|(n, ((p, h), f))| vec![n.to_string(), p, h, f])
        .collect();
    slots.rows.insert("pool-odds", (vec![2, 5, 5, 5], rows));

    // The DA.
    let closing = lookup(CLOSING)?;
    let per_break = closing
        .entries
        .iter()
        .find(|e| e.key.value == PER_BREAK)
        .and_then(|e| match e.value.value {
            blockprint_content::EntryValue::Integer(n) => Some(n),
            _ => None,
        })
        .ok_or_else(|| missing(&format!("{CLOSING}: {PER_BREAK}")))?;
    slots.values.insert("per-break", per_break.to_string());
    let sentencing = lookup(SENTENCING)?;
    let mut targets: Vec<i64> = sentencing
        .entries
        .iter()
        .filter_map(|e| match e.value.value {
            blockprint_content::EntryValue::Integer(n) => Some(n),
            _ => None,
        })
        .collect();
    targets.sort_unstable();
    targets.dedup();
    let mut columns_odds = Vec::new();
    for &target in &targets {
        let mut column = Vec::new();
        for b in 0..=i64::from(BREAKS) {
            column.push(closing_odds(b * per_break, target)?);
        }
        columns_odds.push(player_odds(&column));
    }
    let rows: Vec<Vec<String>> = (0..=i64::from(BREAKS))
        .map(|b| {
            let mut row = vec![format!("{b} (+{})", b * per_break)];
            row.extend(columns_odds.iter().map(|c| c[b as usize].clone()));
            row
        })
        .collect();
    slots.columns.insert(
        "sentences",
        targets.iter().map(|t| format!("≥ {t}")).collect(),
    );
    slots.rows.insert(
        "da-odds",
        (
            std::iter::once(3)
                .chain(targets.iter().map(|_| 2))
                .collect(),
            rows,
        ),
    );
    let mods: Vec<(String, String)> = closing
        .entries
        .iter()
        .filter(|e| e.key.value != PER_BREAK)
        .map(|e| {
            let v = match e.value.value {
                blockprint_content::EntryValue::Integer(n) if n > 0 => format!("+{n}"),
                blockprint_content::EntryValue::Integer(n) => format!("−{}", n.abs()),
                ref v => v.to_string(),
            };
            (format!("{v} "), q(&e.key.value))
        })
        .collect();
    slots
        .blocks
        .insert("closing-modifiers", Block::List { items: mods });
    // What `check` was told the cards compute (`reference_slots`) covers what they do compute.
    let declared = |names: Vec<&&str>, listed: &[&str]| names.iter().all(|n| listed.contains(n));
    if !(declared(slots.values.keys().collect(), &REFERENCE_VALUES)
        && declared(slots.columns.keys().collect(), &REFERENCE_COLUMNS)
        && declared(slots.rows.keys().collect(), &REFERENCE_ROWS)
        && declared(slots.blocks.keys().collect(), &REFERENCE_BLOCKS))
    {
        return Err(invariant(
            "the reference cards compute a slot `reference_slots` does not list",
        ));
    }

    let mut fronts = Vec::new();
    for anchor in page.order.iter().filter(|a| *a != LABELS) {
        let part = &page.parts[anchor];
        let (title, number) = title_and_part(&part.title);
        fronts.push(Face::Reference(Reference {
            title,
            part: number,
            blocks: slots.blocks(&part.blocks)?,
            write_in: false,
        }));
    }
    let back = fronts.len();
    let mut faces = fronts;
    let [title, subtitle]: [String; 2] = labels(
        REFERENCE_PAGE,
        &REFERENCE_LABELS,
        &slots.blocks(&page.parts[LABELS].blocks)?,
    )?
    .try_into()
    .map_err(|_| invariant("the reference cards' labels are not two"))?;
    faces.push(Face::Back(Back {
        style: "reference".into(),
        title,
        subtitle,
    }));
    let cards = (0..back).map(|front| Card { front, back }).collect();
    let md = serde_json::json!({});
    Ok((faces, cards, md))
}

/// Adds `n` write-in reference cards (a blank band and ruled lines, with the cards' back) after the
/// cards [`reference_cards`] made, before their back (which stays the last face, as the Markdown reads
/// it), and says how many in the Markdown's data.
pub fn add_write_ins(
    faces: &mut Vec<Face>,
    cards: &mut Vec<Card>,
    md: &mut serde_json::Value,
    n: usize,
) {
    let Some(back) = cards.first().map(|c| c.back) else {
        return;
    };
    for i in 0..n {
        faces.insert(
            back + i,
            Face::Reference(Reference {
                title: String::new(),
                part: String::new(),
                blocks: Vec::new(),
                write_in: true,
            }),
        );
    }
    for c in cards.iter_mut() {
        c.back += n;
    }
    cards.extend((back..back + n).map(|front| Card {
        front,
        back: back + n,
    }));
    md["write_ins"] = n.into();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64, d: i64) -> BigRational {
        BigRational::new(n.into(), d.into())
    }

    #[test]
    fn player_odds_are_short_fractions_or_percentages() {
        // Every value short: the fraction beside its percentage (whole percentages alone).
        assert_eq!(
            player_odds(&[q(1, 6), q(1, 2), q(5, 12)]),
            ["1/6 (16.7%)", "50%", "5/12 (41.7%)"]
        );
        // One long fraction in the column: percentages alone, the column reads one way.
        assert_eq!(
            player_odds(&[q(1, 6), q(11, 36), q(31031, 46656)]),
            ["16.7%", "30.6%", "66.5%"]
        );
        assert_eq!(percent(&q(1, 100_000)), "under 0.1%");
        assert_eq!(percent(&q(99_999, 100_000)), "over 99.9%");
        assert_eq!(percent(&q(0, 1)), "0%");
        assert_eq!(percent(&q(1, 1)), "100%");
    }
}
