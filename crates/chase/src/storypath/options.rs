//! The `chase … storypath` options, read into a chase (Args, system, setup, build), and the kit's
//! Chase odds page.

use super::*;

/// `chase odds storypath` options.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// The quarry's pool: Skill + Attribute dice (1 to 20).
    #[arg(long, default_value_t = 4, value_name = "DICE", value_parser = clap::value_parser!(u32).range(1..=20))]
    pub quarry_pool: u32,
    /// The pursuers' pool (1 to 20).
    #[arg(long, default_value_t = 4, value_name = "DICE", value_parser = clap::value_parser!(u32).range(1..=20))]
    pub pursuer_pool: u32,
    /// Laps each side needs (1 to 20); --quarry-laps and --pursuer-laps set one side's.
    #[arg(long, default_value_t = 3, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=20))]
    pub laps: u32,
    /// Laps the quarry needs (1 to 20), instead of --laps.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=20))]
    pub quarry_laps: Option<u32>,
    /// Laps the pursuers need (1 to 20), instead of --laps.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=20))]
    pub pursuer_laps: Option<u32>,
    /// The interval limit (1 to 40; default twice the larger laps needed).
    #[arg(long, value_name = "INTERVALS", value_parser = clap::value_parser!(u32).range(1..=40))]
    pub limit: Option<u32>,
    /// A Hazard's rating (0 to 3) lying across every interval.
    #[arg(long, default_value_t = 0, value_name = "RATING", value_parser = clap::value_parser!(u32).range(0..=3))]
    pub hazard: u32,
    /// The quarry's Head Start (0 to 3): an Enhancement on its first interval.
    #[arg(long, default_value_t = 0, value_name = "RATING", value_parser = clap::value_parser!(u32).range(0..=3))]
    pub quarry_head_start: u32,
    /// The pursuers' Head Start (0 to 3).
    #[arg(long, default_value_t = 0, value_name = "RATING", value_parser = clap::value_parser!(u32).range(0..=3))]
    pub pursuer_head_start: u32,
    /// Who wins when both sides make their laps in the same interval (the chapter does not say):
    /// surplus (the side further past its need, the quarry when equal), quarry or pursuer.
    #[arg(long, value_enum, default_value_t = Ties::Surplus, value_name = "RULE")]
    pub ties: Ties,
}

impl Default for Args {
    /// The command line's defaults (constants, checked by the tests: parsing them cannot fail).
    fn default() -> Self {
        crate::model::defaults("storypath").expect("the storypath options' defaults parse")
    }
}

/// The kit's "Chase odds" page ([`crate::page`]): the grid with the default options.
pub fn kit_page(lib: &Library, game: &str) -> Result<serde_json::Value, OptionError> {
    let g = grid(&Args::default(), lib, None)?;
    Ok(crate::page::data(
        &g,
        game,
        "blockprint chase odds storypath --quarry-pool 5 --pursuer-pool 6 --laps 4 --limit 6 --hazard 1",
    ))
}

/// The pool dice of the content (`sp.pool_dice`, the kit's house ruling), or the built-in d10, 8+.
pub fn pool_dice(lib: &Library) -> (u32, u32) {
    let Some(l) = lib.lookup("sp.pool_dice") else {
        return (DIE, SUCCEEDS_ON);
    };
    let int = |key: &str| {
        l.entries
            .iter()
            .find(|e| e.key.value == key)
            .and_then(|e| match e.value.value {
                EntryValue::Integer(n) => u32::try_from(n).ok(),
                EntryValue::Text(_) => None,
            })
    };
    match (int("Die size"), int("Succeeds on")) {
        (Some(d), Some(t)) if (2..=100).contains(&d) && (1..=d).contains(&t) => (d, t),
        _ => (DIE, SUCCEEDS_ON),
    }
}

/// The chase the options describe.
pub fn system(args: &Args, lib: &Library) -> Result<Storypath, OptionError> {
    let q = Side {
        pool: args.quarry_pool,
        laps: args.quarry_laps.unwrap_or(args.laps),
        head_start: args.quarry_head_start,
    };
    let p = Side {
        pool: args.pursuer_pool,
        laps: args.pursuer_laps.unwrap_or(args.laps),
        head_start: args.pursuer_head_start,
    };
    if !LAPS.contains(&args.laps) {
        return Err(OptionError::new(
            Opt::Laps,
            Problem::Range {
                what: "the laps needed",
                lo: 1,
                hi: 20,
                got: i64::from(args.laps),
            },
        ));
    }
    let limit = args.limit.unwrap_or(2 * q.laps.max(p.laps));
    let (die, target) = pool_dice(lib);
    let mut s = Storypath::with_dice(q, p, limit, args.hazard, die, target)?;
    s.ties = args.ties;
    Ok(s)
}

/// The options in words.
pub fn setup(s: &Storypath) -> String {
    let side = |who: &str, x: Side| {
        format!(
            "{who} {} dice needing {} lap{}{}",
            x.pool,
            x.laps,
            if x.laps == 1 { "" } else { "s" },
            if x.head_start > 0 {
                format!(" with Head Start {}", x.head_start)
            } else {
                String::new()
            }
        )
    };
    format!(
        "{}; {}; interval limit {}{}{}",
        side("quarry", s.quarry),
        side("pursuers", s.pursuer),
        s.limit,
        if s.hazard > 0 {
            format!("; Hazard {} every interval", s.hazard)
        } else {
            String::new()
        },
        match s.ties {
            Ties::Surplus => "",
            Ties::Quarry => "; the quarry wins every tie",
            Ties::Pursuer => "; the pursuers win every tie",
        }
    )
}

pub fn build(args: &Args, lib: &Library) -> Result<Box<dyn Chase>, OptionError> {
    let system = system(args, lib)?;
    let setup = setup(&system);
    Ok(Box::new(Built { system, setup }))
}
