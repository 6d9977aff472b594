//! Urban World chases (Dungeon World custom moves, "Urban World – Chases"): a ladder of rungs from
//! Escape! to Capture!, starting at Gaining ground. Each beat both parties' leaders roll 2d6 + the stat
//! the terrain calls for (10+: hold 3, 7–9: hold 2, 6 or less: hold 1; an all-NPC party takes its points
//! instead of rolling), spend the hold in secret, and the party that spends more on Gain an advantage
//! moves the chase one rung its way (a tie moves nothing).
//!
//! The state is the rung alone. The model's choices are the policies (how each party splits its hold)
//! and the house rulings [`RULINGS`] lists.

use blockprint_dice::words::count_words;
use num_traits::Zero;
use rand_chacha::ChaCha20Rng;

use blockprint_content::Library;

use crate::model::{
    Chance, Check, Ending, Opt, OptionError, P, Policy, Problem, Ruling, System, SystemInfo, Unit,
    applies, are_dice, capital, policy_index, roll_dice,
};
use crate::{Built, Chase, Grid, GridTable};

/// The dice of the leader's roll (Dungeon World's move roll; the post never writes it).
pub const DICE: &str = "2d6";
/// (lowest total, hold) of each band, highest first: 10+ hold 3, 7–9 hold 2, anything lower hold 1.
pub const BANDS: [(i64, u32); 3] = [(10, 3), (7, 2), (i64::MIN, 1)];
/// The rungs between Escape! and Capture!, from the quarry's end.
pub const RUNGS: [&str; 3] = ["Getting away", "Gaining ground", "On their heels"];
/// The ranges the middle rungs give.
pub const RANGES: [&str; 3] = ["far", "close", "range"];
/// The rung the chase starts on (1-based among [`RUNGS`]): Gaining ground.
pub const START: u32 = 2;
/// Stats a leader may roll with (Dungeon World's modifiers run from −3 to +3).
pub const STATS: std::ops::RangeInclusive<i64> = -3..=3;
/// Points an all-NPC party may have in a stat (the post's spreads use 1 to 3).
pub const POINTS: std::ops::RangeInclusive<u32> = 1..=3;
/// The most middle rungs `--rungs` takes.
pub const MAX_RUNGS: u32 = 9;
/// Beats before a chase is called off (ties can repeat; by then all but a sliver of chases have ended).
pub const MAX_BEATS: u32 = 60;

/// The house rulings of the model: (id, title, ruling, reason).
pub const RULINGS: [(&str, &str, &str, &str); 4] = [
    (
        "uw.chase.ruling.terrain",
        "One stat for the whole chase",
        "The terrain calls for the same stat every beat, so each party rolls one stat throughout; Direct the chase, which only picks the next terrain, then changes nothing, and no hold is spent on it.",
        "Which terrain a controller describes is a story choice no table of odds can foresee; with the stat fixed, the ladder is all that is left to count.",
    ),
    (
        "uw.chase.ruling.actions",
        "Character actions do not move the ladder",
        "A character action never moves the chase along the ladder; hold spent on actions is hold not spent on Gain an advantage.",
        "The post says a character action should seldom end the chase, and what one does (a shot, a spell, an obstacle) is the fiction's.",
    ),
    (
        "uw.chase.ruling.dice",
        "The leader rolls 2d6 + stat",
        "Each leader rolls two six-sided dice and adds the stat: 10 or more holds 3, 7 to 9 holds 2, 6 or less holds 1.",
        "The post gives the bands but not the dice; Dungeon World's moves roll 2d6 + stat, and the post's worked example fits it.",
    ),
    (
        "uw.chase.ruling.npc",
        "All-NPC parties do not roll",
        "An all-NPC party's hold every beat is its points in the terrain's stat (1 to 3).",
        "The post has the GM assign such parties points instead of rolling and spend them as hold.",
    ),
];

/// How a party gets its hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Leader {
    /// A PC leader rolls 2d6 + this stat.
    Stat(i64),
    /// An all-NPC party takes this many points.
    Npc(u32),
}

impl Leader {
    /// `+2`, `-1`, `0`, or `npc:3`, as the options take it.
    pub fn parse(option: Opt, s: &str) -> Result<Leader, OptionError> {
        let s = s.trim();
        if let Some(p) = s.strip_prefix("npc:") {
            let n: u32 = p.parse().map_err(|_| {
                OptionError::new(
                    option,
                    Problem::NpcPoints {
                        given: s.to_owned(),
                    },
                )
            })?;
            if !POINTS.contains(&n) {
                return Err(OptionError::new(
                    option,
                    Problem::NpcPointsRange {
                        given: s.to_owned(),
                        points: n,
                    },
                ));
            }
            return Ok(Leader::Npc(n));
        }
        let t = s.replace('−', "-");
        let n: i64 = t.trim_start_matches('+').parse().map_err(|_| {
            OptionError::new(
                option,
                Problem::LeaderStat {
                    given: s.to_owned(),
                },
            )
        })?;
        if !STATS.contains(&n) {
            return Err(OptionError::new(
                option,
                Problem::LeaderStatRange {
                    given: s.to_owned(),
                },
            ));
        }
        Ok(Leader::Stat(n))
    }

    /// "+2", "−1", "NPC 3 points".
    pub fn label(&self) -> String {
        match *self {
            Leader::Stat(s) => signed(s),
            Leader::Npc(n) => format!("NPC, {} point{}", n, if n == 1 { "" } else { "s" }),
        }
    }
}

/// `+2`, `+0`, `−1`.
pub fn signed(s: i64) -> String {
    if s < 0 {
        format!("−{}", -s)
    } else {
        format!("+{s}")
    }
}

/// The hold a total gives.
pub fn hold_of(total: i64) -> u32 {
    BANDS
        .iter()
        .find(|(lo, _)| total >= *lo)
        .map_or(1, |&(_, h)| h)
}

/// The leader's roll: 2d6 + stat, read as hold. Its odds come from the dice engine's exact
/// distribution; a roll throws the two dice.
#[derive(Debug, Clone)]
pub struct HoldRoll {
    pub stat: i64,
    dice: u32,
    sides: u32,
    /// (probability, hold)
    outcomes: Vec<(P, i64)>,
}

impl HoldRoll {
    pub fn new(stat: i64) -> HoldRoll {
        let expr = match stat {
            0 => DICE.to_owned(),
            s if s > 0 => format!("{DICE}+{s}"),
            s => format!("{DICE}-{}", -s),
        };
        // DICE and a stat in STATS always parse and have a small distribution.
        let mut by_hold: Vec<(P, i64)> = Vec::new();
        for (p, v) in crate::model::outcomes(&expr) {
            let h = i64::from(hold_of(v));
            match by_hold.iter_mut().find(|(_, k)| *k == h) {
                Some(e) => e.0 += p,
                None => by_hold.push((p, h)),
            }
        }
        by_hold.retain(|(p, _)| !p.is_zero());
        by_hold.sort_by_key(|&(_, h)| h);
        HoldRoll {
            stat,
            dice: 2,
            sides: 6,
            outcomes: by_hold,
        }
    }
}

impl Check for HoldRoll {
    fn describe(&self) -> String {
        match self.stat {
            s if s < 0 => format!("2d6 − {}", -s),
            s => format!("2d6 + {s}"),
        }
    }
    fn outcomes(&self) -> Vec<(P, i64)> {
        self.outcomes.clone()
    }
    fn roll(&self, rng: &mut ChaCha20Rng) -> (Vec<i64>, i64) {
        let faces = roll_dice(rng, self.dice, self.sides);
        let h = self.judge(&faces).unwrap_or(1);
        (faces, h)
    }
    fn judge(&self, faces: &[i64]) -> Option<i64> {
        if !are_dice(faces, self.dice, self.sides) {
            return None;
        }
        Some(i64::from(hold_of(faces.iter().sum::<i64>() + self.stat)))
    }
    fn outcome_label(&self, outcome: i64) -> String {
        format!("hold {outcome}")
    }
}

/// The policies: how the parties split their hold.
pub fn policies() -> Vec<Policy> {
    vec![
        Policy::new(
            "advantage",
            "Both parties spend all their hold on Gain an advantage (best play for both when the stat never changes: more hold there never hurts the spender).",
        ),
        Policy::new(
            "actions",
            "Both parties keep one hold for a character action (a shot, a spell) whenever they hold 2 or more, and spend the rest on Gain an advantage.",
        ),
        Policy::new(
            "quarry-acts",
            "The quarry keeps one hold for a character action whenever it holds 2 or more; the pursuers spend everything on Gain an advantage.",
        ),
        Policy::new(
            "pursuer-acts",
            "The pursuers keep one hold for a character action whenever they hold 2 or more; the quarry spends everything on Gain an advantage.",
        ),
    ]
}

/// An Urban World chase: the two parties and the ladder.
#[derive(Debug, Clone)]
pub struct UrbanWorld {
    pub quarry: Leader,
    pub pursuer: Leader,
    /// Rungs between Escape! and Capture! (the post's ladder has 3).
    pub rungs: u32,
    /// The starting rung, 1 = nearest Escape!.
    pub start: u32,
    /// The leaders' rolls (None for an all-NPC party), worked out once.
    rolls: [Option<HoldRoll>; 2],
}

impl UrbanWorld {
    /// A chase on the post's ladder (three middle rungs, starting at Gaining ground).
    pub fn new(quarry: Leader, pursuer: Leader) -> UrbanWorld {
        let roll = |l: Leader| match l {
            Leader::Stat(s) => Some(HoldRoll::new(s)),
            Leader::Npc(_) => None,
        };
        UrbanWorld {
            quarry,
            pursuer,
            rungs: RUNGS.len() as u32,
            start: START,
            rolls: [roll(quarry), roll(pursuer)],
        }
    }

    /// A chase on a ladder of `rungs` middle rungs starting on `start` (1-based from the quarry's end).
    pub fn with_ladder(mut self, rungs: u32, start: u32) -> Result<UrbanWorld, OptionError> {
        if !(1..=MAX_RUNGS).contains(&rungs) {
            return Err(OptionError::new(
                Opt::Rungs,
                Problem::Rungs {
                    max: MAX_RUNGS,
                    got: rungs,
                },
            ));
        }
        if !(1..=rungs).contains(&start) {
            return Err(OptionError::new(
                Opt::Start,
                Problem::LadderStart { rungs, got: start },
            ));
        }
        self.rungs = rungs;
        self.start = start;
        Ok(self)
    }

    /// The name of rung `r` (0 = Escape!, rungs + 1 = Capture!).
    pub fn rung_name(&self, r: u32) -> String {
        if r == 0 {
            "Escape!".into()
        } else if r > self.rungs {
            "Capture!".into()
        } else if self.rungs == RUNGS.len() as u32 {
            format!("{} ({})", RUNGS[r as usize - 1], RANGES[r as usize - 1])
        } else {
            format!("rung {r} of {}", self.rungs)
        }
    }

    /// The hold party `who` gets this beat.
    fn hold(&self, side: usize, chance: &mut dyn Chance) -> u32 {
        let (who, leader) = if side == 0 {
            ("the quarry's leader", self.quarry)
        } else {
            ("the pursuers' leader", self.pursuer)
        };
        // The same stat every beat, and no hold on Direct the chase.
        applies("uw.chase.ruling.terrain");
        if let Some(roll) = &self.rolls[side] {
            applies("uw.chase.ruling.dice");
            let h = chance.roll(who, "for hold", roll);
            return u32::try_from(h).unwrap_or(1);
        }
        applies("uw.chase.ruling.npc");
        let n = match leader {
            Leader::Npc(n) => n,
            Leader::Stat(_) => 1,
        };
        let party = if side == 0 {
            "the quarry"
        } else {
            "the pursuers"
        };
        chance.note(&|| {
            format!(
                "{} (all NPCs) take {n} point{} as hold",
                capital(party),
                if n == 1 { "" } else { "s" }
            )
        });
        n
    }
}

/// What a party spends on Gain an advantage out of `hold` when it `acts` (keeps one for an action).
pub fn on_advantage(hold: u32, acts: bool) -> u32 {
    applies("uw.chase.ruling.actions");
    if acts && hold >= 2 { hold - 1 } else { hold }
}

impl System for UrbanWorld {
    type State = u32;

    fn info(&self) -> SystemInfo {
        SystemInfo {
            id: "urban-world".into(),
            name: "Urban World".into(),
            unit: Unit::new("beat", "beats"),
            endings: vec![
                Ending::new("escaped", "Escape!: the quarry gets away"),
                Ending::new("caught", "Capture!: the pursuers run the quarry down"),
            ],
            policies: policies(),
            rulings: RULINGS
                .iter()
                .map(|(id, t, r, why)| Ruling::new(id, t, r, why))
                .collect(),
        }
    }

    fn start(&self, _chance: &mut dyn Chance) -> u32 {
        self.start
    }

    fn ending(&self, state: &u32) -> Option<usize> {
        if *state == 0 {
            Some(0)
        } else if *state > self.rungs {
            Some(1)
        } else {
            None
        }
    }

    fn step(&self, state: &u32, policy: usize, chance: &mut dyn Chance) -> u32 {
        let hq = self.hold(0, chance);
        let hp = self.hold(1, chance);
        let (q_acts, p_acts) = match policy {
            1 => (true, true),
            2 => (true, false),
            3 => (false, true),
            _ => (false, false),
        };
        let (aq, ap) = (on_advantage(hq, q_acts), on_advantage(hp, p_acts));
        let next = if aq > ap {
            state - 1
        } else if ap > aq {
            state + 1
        } else {
            *state
        };
        chance.note(&|| {
            let spend = |who: &str, verb: &str, h: u32, a: u32| {
                if a == h {
                    format!(
                        "{who} {verb} all {} hold on Gain an advantage",
                        count_words(h)
                    )
                } else {
                    format!(
                        "{who} {verb} {} on Gain an advantage and {} on a character action",
                        count_words(a),
                        count_words(h - a)
                    )
                }
            };
            let result = if next == *state {
                "a tie: the chase stays put".to_owned()
            } else if next < *state {
                format!("the quarry pulls away to {}", self.rung_name(next))
            } else {
                format!("the pursuers close to {}", self.rung_name(next))
            };
            format!(
                "{}; {}: {result}",
                spend("The quarry", "spends", hq, aq),
                spend("the pursuers", "spend", hp, ap)
            )
        });
        next
    }

    fn describe(&self, state: &u32) -> String {
        self.rung_name(*state)
    }

    fn max_units(&self) -> u32 {
        MAX_BEATS
    }
}

// ---------- the command line and the grid ----------

/// `chase odds urban-world` options.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// The quarry's leader: the stat the terrain calls for, −3 to +3 (`+2`, `-1`), or `npc:N` for an
    /// all-NPC party with N points (1 to 3) in it.
    #[arg(
        long,
        default_value = "+0",
        allow_hyphen_values = true,
        value_name = "STAT"
    )]
    pub quarry: String,
    /// The pursuers' leader, as --quarry.
    #[arg(
        long,
        default_value = "+0",
        allow_hyphen_values = true,
        value_name = "STAT"
    )]
    pub pursuer: String,
    /// Rungs between Escape! and Capture! (the post's ladder has three).
    #[arg(long, default_value_t = 3, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=9))]
    pub rungs: u32,
    /// The rung the chase starts on, counted from the quarry's end (default: Gaining ground, the middle).
    #[arg(long, value_name = "RUNG", value_parser = clap::value_parser!(u32).range(1..=9))]
    pub start: Option<u32>,
}

impl Default for Args {
    /// The command line's defaults (constants, checked by the tests: parsing them cannot fail).
    fn default() -> Self {
        crate::model::defaults("urban-world").expect("the urban-world options' defaults parse")
    }
}

/// The kit's "Chase odds" page ([`crate::page`]): the grid with the default options.
pub fn kit_page(lib: &Library, game: &str) -> Result<serde_json::Value, OptionError> {
    let g = grid(&Args::default(), lib, None)?;
    Ok(crate::page::data(
        &g,
        game,
        "blockprint chase odds urban-world --quarry +1 --pursuer npc:2 --policy actions",
    ))
}

/// The chase the options describe.
pub fn system(args: &Args) -> Result<UrbanWorld, OptionError> {
    let q = Leader::parse(Opt::Quarry, &args.quarry)?;
    let p = Leader::parse(Opt::Pursuer, &args.pursuer)?;
    let start = args.start.unwrap_or(args.rungs.div_ceil(2).max(1));
    UrbanWorld::new(q, p).with_ladder(args.rungs, start)
}

/// The options in words.
pub fn setup(sys: &UrbanWorld) -> String {
    format!(
        "quarry's leader {}, pursuers' leader {}; a ladder of {} rung{} between Escape! and Capture!, starting at {}",
        sys.quarry.label(),
        sys.pursuer.label(),
        sys.rungs,
        if sys.rungs == 1 { "" } else { "s" },
        sys.rung_name(sys.start)
    )
}

pub fn build(args: &Args, _lib: &Library) -> Result<Box<dyn Chase>, OptionError> {
    let system = system(args)?;
    let setup = setup(&system);
    Ok(Box::new(Built { system, setup }))
}

/// The stats the grid runs over (the kit's hold table's spread).
pub const GRID_STATS: std::ops::RangeInclusive<i64> = -1..=3;

/// The grid: quarry's stat × pursuers' stat, the chance the quarry escapes.
pub fn grid(args: &Args, _lib: &Library, policy: Option<&str>) -> Result<Grid, OptionError> {
    let base = system(args)?;
    let info = base.info();
    let pi = policy_index(&info, policy)?;
    let stats: Vec<i64> = GRID_STATS.collect();
    let cells = stats
        .iter()
        .map(|&q| {
            stats
                .iter()
                .map(|&p| {
                    let mut sys = UrbanWorld::new(Leader::Stat(q), Leader::Stat(p));
                    sys.rungs = base.rungs;
                    sys.start = base.start;
                    let built = Built {
                        setup: setup(&sys),
                        system: sys,
                    };
                    Grid::cell(&built, pi, "escaped")
                })
                .collect::<Result<Vec<_>, _>>()
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Grid {
        system: info.id.clone(),
        system_name: info.name.clone(),
        title: "Urban World: how often the quarry escapes".into(),
        headline: info.endings[0].clone(),
        policy: info.policies[pi].clone(),
        unit: info.unit.clone(),
        rows_label: "Quarry's stat".into(),
        cols_label: "Pursuers' stat".into(),
        tables: vec![GridTable {
            caption: String::new(),
            rows: stats.iter().map(|&s| signed(s)).collect(),
            cols: stats.iter().map(|&s| signed(s)).collect(),
            cells,
        }],
        notes: vec![format!(
            "Each beat both leaders roll two six-sided dice plus the stat: 10 or more holds 3, 7 to 9 holds 2, 6 or less holds 1. The chase starts at {} with {} rungs between Escape! and Capture!.",
            base.rung_name(base.start),
            base.rungs
        )],
        rulings: info.rulings.clone(),
    })
}
