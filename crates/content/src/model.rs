//! The content model: what a content file may hold (serde types, spans kept) and the loaded, located forms.

use std::ops::Range;

use serde::Deserialize;
use toml::Spanned;

use crate::diag::Loc;

/// One `.toml` file as written. Every struct denies unknown keys so a typo is an error at its place.
#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct FileDoc {
    #[serde(default)]
    pub table: Vec<Spanned<TableDoc>>,
    #[serde(default)]
    pub lookup: Vec<Spanned<LookupDoc>>,
    #[serde(default)]
    pub deck: Vec<Spanned<DeckDoc>>,
    #[serde(default)]
    pub npc: Vec<Spanned<NpcDoc>>,
    #[serde(default)]
    pub book: Vec<Spanned<BookDoc>>,
    #[serde(default)]
    pub ruling: Vec<Spanned<RulingDoc>>,
    #[serde(default)]
    pub kit: Vec<Spanned<KitDoc>>,
    #[serde(default)]
    pub claimed_odds: Vec<Spanned<ClaimedOddsDoc>>,
    #[serde(default)]
    pub track: Vec<Spanned<TrackDoc>>,
    #[serde(default)]
    pub chart: Vec<Spanned<ChartDoc>>,
}

/// A table of contest odds as a source prints them (`[[claimed_odds]]`): what `blockprint verify-odds`
/// checks against the exact odds. Enumerated keys are strings so the checker can locate a bad one.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ClaimedOddsDoc {
    pub id: Spanned<String>,
    pub title: String,
    pub printed_in: Option<String>,
    pub note: Option<String>,
    pub ties: Spanned<String>,
    pub attacker: Option<Spanned<String>>,
    pub rounding: Spanned<String>,
    pub decimals: Option<Spanned<i64>>,
    pub columns: Spanned<Vec<Spanned<ClaimColumnDoc>>>,
    pub rows: Spanned<Vec<Spanned<ClaimRowDoc>>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ClaimColumnDoc {
    pub label: String,
    pub a: Spanned<String>,
    pub b: Spanned<String>,
    #[serde(default)]
    pub also: Vec<Spanned<ClaimContestDoc>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ClaimContestDoc {
    pub a: Spanned<String>,
    pub b: Spanned<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ClaimRowDoc {
    pub label: String,
    pub counts: Spanned<String>,
    pub cells: Spanned<Vec<Spanned<String>>>,
}

/// A chart: a reference table of several columns (vehicles, speeds), read, never rolled.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ChartDoc {
    pub id: Spanned<String>,
    pub title: String,
    pub note: Option<String>,
    pub editorial: Option<String>,
    pub columns: Spanned<Vec<Spanned<String>>>,
    #[serde(default)]
    pub numeric: Vec<Spanned<String>>,
    pub rows: Spanned<Vec<Spanned<ChartRowDoc>>>,
}

/// A chart row: its cells alone, or a table with `cells` and an `editorial` reason.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub(crate) enum ChartRowDoc {
    Cells(Vec<Cell>),
    Full(ChartRowFull),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ChartRowFull {
    pub cells: Vec<Cell>,
    pub editorial: Option<String>,
}

/// A chart cell as written: text or a number.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub(crate) enum Cell {
    Int(i64),
    Float(f64),
    Text(String),
}

impl Cell {
    /// The cell as printed: numbers as written in TOML (`0.5`, `13`).
    pub(crate) fn text(&self) -> String {
        match self {
            Cell::Int(i) => i.to_string(),
            Cell::Float(f) => f.to_string(),
            Cell::Text(s) => s.clone(),
        }
    }
}

/// A game's kit: where its rules come from and under which licence (printed on every page of the kit).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct KitDoc {
    pub id: Spanned<String>,
    pub title: String,
    pub source: String,
    pub licence: String,
    pub attribution: Option<String>,
    pub editorial: Option<String>,
    /// The kit's prose pages: Markdown files `kit/<slug>.md` beside the kit's TOML.
    #[serde(default)]
    pub pages: Vec<Spanned<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct BookDoc {
    pub id: Spanned<String>,
    pub title: String,
    pub subtitle: Option<String>,
    pub author: String,
    pub language: Option<String>,
    pub credits: Option<String>,
    pub edition: Option<String>,
    pub own_tables: Option<OwnTables>,
    pub chapters: Vec<Spanned<String>>,
    #[serde(default)]
    pub index: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RulingDoc {
    pub id: Spanned<String>,
    pub title: String,
    pub ruling: String,
    pub reason: Option<String>,
}

/// A chapter file's front matter.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct FrontMatter {
    pub title: String,
    /// What the chapter is to its book beyond a chapter (`role = "quick-reference"`).
    #[serde(default)]
    pub role: Option<ChapterRole>,
}

/// A chapter's `role` in its front matter: what the book does with it besides printing it as a chapter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ChapterRole {
    /// `role = "quick-reference"`: the rules a player looks up in play, which the PDF sets on a page of
    /// its own at the back (the last page of a folded booklet) instead of among the chapters.
    QuickReference,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct TableDoc {
    pub id: Spanned<String>,
    pub title: String,
    pub dice: Spanned<String>,
    pub note: Option<String>,
    pub editorial: Option<String>,
    pub keys_of: Option<Spanned<String>>,
    pub imported: Option<String>,
    pub rows: Spanned<Vec<Spanned<RowDoc>>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RowDoc {
    pub on: Spanned<String>,
    pub result: Spanned<String>,
    pub editorial: Option<String>,
    pub modifier: Option<i64>,
    pub unit: Option<Unit>,
    #[serde(default)]
    pub tags: Vec<Spanned<String>>,
    pub forms: Option<Spanned<Forms>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct LookupDoc {
    pub id: Spanned<String>,
    pub title: String,
    pub key: String,
    pub value: String,
    pub kind: ValueKind,
    pub role: Option<String>,
    pub note: Option<String>,
    pub editorial: Option<String>,
    pub entries: Spanned<Vec<Spanned<EntryDoc>>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct EntryDoc {
    pub key: Spanned<String>,
    pub value: Spanned<EntryValue>,
    pub note: Option<String>,
    pub editorial: Option<String>,
    pub up_to_hours: Option<Spanned<f64>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct DeckDoc {
    pub id: Spanned<String>,
    pub title: String,
    pub note: Option<String>,
    pub editorial: Option<String>,
    pub back: Option<String>,
    pub damage: Option<String>,
    pub suits: SuitMeanings,
    pub ranks: Option<Spanned<Vec<Spanned<String>>>>,
    pub hearts: Option<Spanned<Vec<Spanned<String>>>>,
    pub clubs: Option<Spanned<Vec<Spanned<String>>>>,
    pub diamonds: Option<Spanned<Vec<Spanned<String>>>>,
    pub spades: Option<Spanned<Vec<Spanned<String>>>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct NpcDoc {
    pub id: Spanned<String>,
    pub name: String,
    pub class: Spanned<String>,
    pub level: u32,
    pub mastery: Option<String>,
}

/// The unit of a row's inline roll, for rolls that measure time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Unit {
    Hours,
    Days,
    Weeks,
    Months,
    Years,
}

/// What every value of a lookup must be.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ValueKind {
    Dice,
    Integer,
    Text,
}

/// A lookup value as written: a whole number or a string.
#[derive(Debug, Clone, PartialEq, Deserialize, serde::Serialize)]
#[serde(untagged)]
pub enum EntryValue {
    Integer(i64),
    Text(String),
}

impl std::fmt::Display for EntryValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EntryValue::Integer(n) => write!(f, "{n}"),
            EntryValue::Text(s) => f.write_str(s),
        }
    }
}

/// What each suit of a deck stands for.
#[derive(Debug, Clone, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct SuitMeanings {
    pub hearts: String,
    pub clubs: String,
    pub diamonds: String,
    pub spades: String,
}

/// A string from content with the place it was written.
#[derive(Debug, Clone, PartialEq)]
pub struct Located<T> {
    pub value: T,
    pub loc: Loc,
}

impl<T> Located<T> {
    pub(crate) fn new(value: T, file: usize, span: Range<usize>) -> Self {
        Located {
            value,
            loc: Loc { file, span },
        }
    }
}

/// A random table: a dice expression and the rows its outcomes select.
#[derive(Debug, Clone)]
pub struct Table {
    pub id: Located<String>,
    pub title: String,
    pub dice: Located<String>,
    pub note: Option<String>,
    pub editorial: Option<String>,
    /// Every row's result must be a key of this lookup (e.g. a charge names a sentencing entry).
    pub keys_of: Option<Located<String>>,
    /// Where an imported table came from (`blockprint import` writes it: the format and the file). An
    /// imported table needs no place in a book.
    pub imported: Option<String>,
    pub rows: Vec<Row>,
    /// Where the `rows` array is written.
    pub rows_loc: Loc,
}

#[derive(Debug, Clone)]
pub struct Row {
    pub on: Located<String>,
    pub result: Located<String>,
    pub editorial: Option<String>,
    pub modifier: Option<i64>,
    pub unit: Option<Unit>,
    /// Lowercase words generators use to recognise a row (`police`, `witness`, `male` …).
    pub tags: Vec<Located<String>>,
    /// How a rolled man or woman reads the row, when its result names both (`Waiter or waitress`).
    pub forms: Option<Located<Forms>>,
    pub loc: Loc,
}

/// A row's words for one person: the man's and the woman's form of a result that names both
/// (`result = "Waiter or waitress"`, `forms = { male = "Waiter", female = "Waitress" }`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Forms {
    pub male: String,
    pub female: String,
}

impl Forms {
    /// The form for `gender` (`male` or `female`); none for any other word.
    pub fn of(&self, gender: &str) -> Option<&str> {
        match gender {
            "male" => Some(&self.male),
            "female" => Some(&self.female),
            _ => None,
        }
    }
}

impl Row {
    pub fn has_tag(&self, tag: &str) -> bool {
        self.tags.iter().any(|t| t.value == tag)
    }
}

/// A table keyed by name (class → hit die, crime → years).
#[derive(Debug, Clone)]
pub struct Lookup {
    pub id: Located<String>,
    pub title: String,
    pub key: String,
    pub value: String,
    pub kind: ValueKind,
    pub role: Option<String>,
    pub note: Option<String>,
    pub editorial: Option<String>,
    pub entries: Vec<Entry>,
    pub entries_loc: Loc,
}

#[derive(Debug, Clone)]
pub struct Entry {
    pub key: Located<String>,
    pub value: Located<EntryValue>,
    pub note: Option<String>,
    pub editorial: Option<String>,
    pub up_to_hours: Option<Located<f64>>,
}

/// The four suits in the order blockprint prints them.
pub const SUITS: [&str; 4] = ["hearts", "clubs", "diamonds", "spades"];
/// Card ranks in suit order.
pub const RANKS: [&str; 13] = [
    "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K",
];

#[derive(Debug, Clone)]
pub struct Deck {
    pub id: Located<String>,
    pub title: String,
    pub note: Option<String>,
    pub editorial: Option<String>,
    /// The words under the title on the cards' back (`Road ahead`), if the deck gives them.
    pub back: Option<String>,
    /// The word before a card's damage on its face (`Damage`), if the deck gives it.
    pub damage: Option<String>,
    pub suits: SuitMeanings,
    /// The deck's ranks in suit order as declared (`ranks = [...]`), or [`RANKS`] when the key is absent
    /// (then located at the deck's id). The checker allows only ranks of [`RANKS`], each once.
    pub ranks: Located<Vec<Located<String>>>,
    /// Cards per suit, in [`SUITS`] order, each card in rank order as written.
    pub cards: [Located<Vec<Located<String>>>; 4],
}

impl Deck {
    /// The ranks of each suit, in order.
    pub fn rank_names(&self) -> Vec<&str> {
        self.ranks.value.iter().map(|r| r.value.as_str()).collect()
    }
}

#[derive(Debug, Clone)]
pub struct Npc {
    pub id: Located<String>,
    pub name: String,
    pub class: Located<String>,
    pub level: u32,
    pub mastery: Option<String>,
}

/// A booklet: its metadata and chapters in reading order.
#[derive(Debug, Clone)]
pub struct Book {
    pub id: Located<String>,
    pub title: String,
    pub subtitle: Option<String>,
    pub author: String,
    pub language: String,
    pub credits: Option<String>,
    /// The edition as a reader names it (`First edition, 2026`): the cover and the colophon print it,
    /// where a program would print the content's hash.
    pub edition: Option<String>,
    /// What the book does with the tables that are the GM's own (outside the rules' namespaces, or
    /// imported) and that no chapter places: leave them out, or print them in Appendix A.
    pub own_tables: OwnTables,
    /// The terms of the printed index (`index = ["ability roll", …]`): the PDF lists each with the pages
    /// of the chapters that use it (plurals included).
    pub index: Vec<String>,
    /// Chapter slugs as listed, with where each is listed.
    pub order: Vec<Located<String>>,
    /// The chapters found, in listed order (missing ones are left out and reported).
    pub chapters: Vec<Chapter>,
}

/// `own_tables` of a `[[book]]`: what the book does with tables of the GM's own that no chapter places.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum OwnTables {
    /// `own_tables = "leave-out"` (the default): the book does not print them.
    #[default]
    LeaveOut,
    /// `own_tables = "appendix"`: Appendix A prints them after the tables the chapters place.
    Appendix,
}

/// One Markdown chapter: front matter title and the body that follows it.
#[derive(Debug, Clone)]
pub struct Chapter {
    pub slug: String,
    pub title: String,
    /// Its front matter's `role`, if any.
    pub role: Option<ChapterRole>,
    /// The Markdown after the front matter.
    pub body: String,
    /// Which source holds it and the byte offset of `body` in that source.
    pub file: usize,
    pub body_offset: usize,
}

/// A game's kit: its id is the game (`coc`), the first segment of every id that belongs to it.
#[derive(Debug, Clone)]
pub struct Kit {
    pub id: Located<String>,
    pub title: String,
    /// What the kit is drawn from: title, author, publisher.
    pub source: String,
    /// The licence of the source text.
    pub licence: String,
    /// Text the licence asks every derived page to carry (CC BY-SA attribution).
    pub attribution: Option<String>,
    /// Corrections or fills that concern the kit as a whole.
    pub editorial: Option<String>,
    /// Page slugs as listed (`pages = [...]`), with where each is listed.
    pub order: Vec<Located<String>>,
    /// The kit's prose, one Markdown file per page (`<kit folder>/kit/<slug>.md`), in listed order; the
    /// kit's PDF and Markdown both render it, so each sentence is written once.
    pub pages: Vec<Chapter>,
}

impl Kit {
    /// The prose page with this slug.
    pub fn page(&self, slug: &str) -> Option<&Chapter> {
        self.pages.iter().find(|p| p.slug == slug)
    }
}

/// A house ruling on a point the rules leave open.
#[derive(Debug, Clone)]
pub struct Ruling {
    pub id: Located<String>,
    pub title: String,
    pub ruling: String,
    pub reason: Option<String>,
}

/// A chart: columns and rows of cells (every cell as printed), checked by `check` (one cell per column,
/// declared numeric columns hold numbers).
#[derive(Debug, Clone)]
pub struct Chart {
    pub id: Located<String>,
    pub title: String,
    pub note: Option<String>,
    pub editorial: Option<String>,
    pub columns: Located<Vec<Located<String>>>,
    /// Names of the columns whose cells must be numbers.
    pub numeric: Vec<Located<String>>,
    pub rows: Located<Vec<ChartRow>>,
}

/// One row of a [`Chart`].
#[derive(Debug, Clone)]
pub struct ChartRow {
    pub cells: Vec<String>,
    pub editorial: Option<String>,
    pub loc: Loc,
}

impl Chart {
    /// The place of the column named `name`.
    pub fn column(&self, name: &str) -> Option<usize> {
        self.columns.value.iter().position(|c| c.value == name)
    }
}

/// A chase track as written: spaces in order, features on them, and where the runners start.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct TrackDoc {
    pub id: Spanned<String>,
    pub title: String,
    pub note: Option<String>,
    pub editorial: Option<String>,
    #[serde(default)]
    pub space: Vec<Spanned<SpaceDoc>>,
    #[serde(default)]
    pub start: Vec<Spanned<StartDoc>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SpaceDoc {
    pub n: Spanned<i64>,
    pub name: Option<String>,
    pub challenge: Option<Spanned<ChallengeDoc>>,
    pub gate: Option<FeatureDoc>,
    pub exit: Option<FeatureDoc>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ChallengeDoc {
    pub title: String,
    pub text: Option<String>,
    pub plus: Spanned<i64>,
    pub minus: Spanned<i64>,
    pub damage: u32,
    pub plus_text: Option<String>,
    pub default_text: Option<String>,
    pub minus_text: Option<String>,
    pub editorial: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct FeatureDoc {
    pub title: String,
    pub text: Option<String>,
    pub editorial: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct StartDoc {
    pub who: String,
    pub side: Side,
    pub space: Spanned<i64>,
}

/// Which side of a chase a runner is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    Pursuer,
    Evader,
}

/// A chase track (`[[track]]`): numbered spaces in running order, challenges, gates and exits on them,
/// and the runners' start spaces. The checker (check/tracks.rs) validates every path and place.
#[derive(Debug, Clone)]
pub struct Track {
    pub id: Located<String>,
    pub title: String,
    pub note: Option<String>,
    pub editorial: Option<String>,
    pub spaces: Vec<Space>,
    pub starts: Vec<Start>,
}

/// One space of a track.
#[derive(Debug, Clone)]
pub struct Space {
    pub n: Located<i64>,
    pub name: Option<String>,
    pub challenge: Option<Challenge>,
    pub gate: Option<Feature>,
    pub exit: Option<Feature>,
}

/// A challenge on a space: the + path (a shortcut) leads to `plus`, ahead of the next space; the − path
/// (a detour) to `minus`, at or behind the challenge's own space; `damage` is the hazard's damage.
#[derive(Debug, Clone)]
pub struct Challenge {
    pub title: String,
    pub text: Option<String>,
    pub plus: Located<i64>,
    pub minus: Located<i64>,
    pub damage: u32,
    pub plus_text: Option<String>,
    pub default_text: Option<String>,
    pub minus_text: Option<String>,
    pub editorial: Option<String>,
    pub loc: crate::diag::Loc,
}

/// A gate or an exit.
#[derive(Debug, Clone)]
pub struct Feature {
    pub title: String,
    pub text: Option<String>,
    pub editorial: Option<String>,
}

/// Where a runner starts.
#[derive(Debug, Clone)]
pub struct Start {
    pub who: String,
    pub side: Side,
    pub space: Located<i64>,
}

/// A printed table of contest odds (`[[claimed_odds]]`): rows are outcomes (`counts`), columns are contests
/// of side A against side B, cells are the percentages exactly as the source prints them.
#[derive(Debug, Clone)]
pub struct ClaimedOdds {
    pub id: Located<String>,
    pub title: String,
    /// Where the source prints the table.
    pub printed_in: Option<String>,
    pub note: Option<String>,
    /// `show` (draws on their own), `defender` or `attacker` (the side a draw counts for).
    pub ties: Located<String>,
    /// `a` or `b`: which side attacks (required unless `ties = "show"`).
    pub attacker: Option<Located<String>>,
    /// `nearest`, `down` or `up`: how the source rounds a percentage.
    pub rounding: Located<String>,
    /// Digits the source prints after the decimal point (absent: 0).
    pub decimals: Option<Located<i64>>,
    pub columns: Vec<ClaimColumn>,
    pub columns_loc: Loc,
    pub rows: Vec<ClaimRow>,
    pub rows_loc: Loc,
}

/// One column of a claimed table: the contest it stands for, and any other contests the source says the
/// same column covers ("both advantaged (or disadvantaged)").
#[derive(Debug, Clone)]
pub struct ClaimColumn {
    pub label: String,
    /// `(a, b)` dice expressions: the first is the column's own, the rest its `also`.
    pub contests: Vec<(Located<String>, Located<String>)>,
    pub loc: Loc,
}

/// One row of a claimed table: which outcome it counts and the printed cells, one per column.
#[derive(Debug, Clone)]
pub struct ClaimRow {
    pub label: String,
    /// `a` (side A comes out ahead), `b`, or `draw`.
    pub counts: Located<String>,
    pub cells: Vec<Located<String>>,
    pub cells_loc: Loc,
    pub loc: Loc,
}
