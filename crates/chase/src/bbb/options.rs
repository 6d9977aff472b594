//! The `chase … bbb` options, read into a chase (Args, build).

use super::*;

/// `chase … bbb` options.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// The quarry's level (0 to 20): dice per chase roll before the attribute modifier.
    #[arg(long, default_value_t = 1, allow_hyphen_values = true, value_parser = clap::value_parser!(i32).range(0..=20))]
    pub quarry_level: i32,
    /// The pursuer's level (0 to 20).
    #[arg(long, default_value_t = 1, allow_hyphen_values = true, value_parser = clap::value_parser!(i32).range(0..=20))]
    pub pursuer_level: i32,
    /// The quarry's Hot Pursuit at the start (1 to 200; its HP, pooled when it shares a vehicle).
    #[arg(long, default_value_t = 10, allow_hyphen_values = true, value_parser = clap::value_parser!(i16).range(1..=200))]
    pub quarry_hp: i16,
    /// The pursuer's Hot Pursuit at the start (1 to 200).
    #[arg(long, default_value_t = 10, allow_hyphen_values = true, value_parser = clap::value_parser!(i16).range(1..=200))]
    pub pursuer_hp: i16,
    /// The quarry's attribute modifiers, e.g. `wis=1,dex=2,int=-1` (missing ones are 0).
    #[arg(
        long,
        value_name = "MODS",
        default_value = "",
        allow_hyphen_values = true
    )]
    pub quarry_mods: String,
    /// The pursuer's attribute modifiers.
    #[arg(
        long,
        value_name = "MODS",
        default_value = "",
        allow_hyphen_values = true
    )]
    pub pursuer_mods: String,
    /// The quarry's transport is notably faster: its rolls have advantage.
    #[arg(long, conflicts_with = "pursuer_faster")]
    pub quarry_faster: bool,
    /// The pursuer's transport is notably faster.
    #[arg(long)]
    pub pursuer_faster: bool,
    /// People in the quarry's vehicle (1 to 50; two or more over the other side's: disadvantage).
    #[arg(long, default_value_t = 1, allow_hyphen_values = true, value_parser = clap::value_parser!(u32).range(1..=50))]
    pub quarry_occupants: u32,
    /// People in the pursuer's vehicle (1 to 50).
    #[arg(long, default_value_t = 1, allow_hyphen_values = true, value_parser = clap::value_parser!(u32).range(1..=50))]
    pub pursuer_occupants: u32,
    /// The side that should have no chance but plays a desperate pursuit, at disadvantage.
    #[arg(long, value_enum)]
    pub natural_loser: Option<Who>,
    /// The player characters' side: it rolls Wisdom for who goes first.
    #[arg(long, value_enum, default_value = "pursuer")]
    pub pcs: Who,
    /// Call the chase off after this many rounds (its chance is reported as an ending). Few rounds keep
    /// the exact computation within its limits; the default is practically unlimited.
    #[arg(long, default_value_t = MAX_ROUNDS, allow_hyphen_values = true, value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_ROUNDS)))]
    pub rounds: u32,
}

/// `wis=1,dex=-2` → modifiers in suit order.
fn parse_mods(option: Opt, text: &str) -> Result<[i32; 4], OptionError> {
    let mut mods = [0i32; 4];
    let mut given: [Option<&str>; 4] = [None; 4];
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let Some((name, v)) = part.split_once('=') else {
            return Err(OptionError::new(
                option,
                Problem::ModSyntax {
                    part: part.to_owned(),
                },
            ));
        };
        let i = match name.trim().to_ascii_lowercase().as_str() {
            "wis" | "wisdom" => 0,
            "cha" | "charisma" => 1,
            "dex" | "dexterity" => 2,
            "int" | "intelligence" => 3,
            other => {
                return Err(OptionError::new(
                    option,
                    Problem::ModAttribute {
                        name: other.to_owned(),
                    },
                ));
            }
        };
        if let Some(first) = given[i] {
            return Err(OptionError::new(
                option,
                Problem::ModTwice {
                    part: part.to_owned(),
                    attribute: ["Wisdom", "Charisma", "Dexterity", "Intelligence"][i],
                    first: first.to_owned(),
                },
            ));
        }
        given[i] = Some(part);
        let v: i32 = v.trim().trim_start_matches('+').parse().map_err(|_| {
            OptionError::new(
                option,
                Problem::ModNumber {
                    text: v.trim().to_owned(),
                },
            )
        })?;
        if !(-5..=5).contains(&v) {
            return Err(OptionError::new(option, Problem::ModRange { got: v }));
        }
        mods[i] = v;
    }
    Ok(mods)
}

impl Args {
    pub(super) fn system(
        &self,
        quarry_level: i32,
        pursuer_level: i32,
        quarry_hp: i16,
        pursuer_hp: i16,
    ) -> Result<Bbb, OptionError> {
        let qm = parse_mods(Opt::QuarryMods, &self.quarry_mods)?;
        let pm = parse_mods(Opt::PursuerMods, &self.pursuer_mods)?;
        let q_crowded = self.quarry_occupants >= self.pursuer_occupants + 2;
        let p_crowded = self.pursuer_occupants >= self.quarry_occupants + 2;
        let loser = |w| self.natural_loser == Some(w);
        Ok(Bbb {
            quarry: Side {
                level: quarry_level,
                mods: qm,
                hp: quarry_hp,
                edge: Edge::of(self.quarry_faster, q_crowded || loser(Who::Quarry)),
            },
            pursuer: Side {
                level: pursuer_level,
                mods: pm,
                hp: pursuer_hp,
                edge: Edge::of(self.pursuer_faster, p_crowded || loser(Who::Pursuer)),
            },
            pcs: self.pcs,
            rounds: self.rounds,
            class: std::sync::OnceLock::new(),
        })
    }
}

pub(super) fn side_words(name: &str, s: &Side) -> String {
    let mut w = format!("{name} level {}, {} Hot Pursuit", s.level, s.hp);
    if s.mods != [0; 4] {
        let m: Vec<String> = ["Wis", "Cha", "Dex", "Int"]
            .iter()
            .zip(s.mods)
            .filter(|(_, v)| *v != 0)
            .map(|(n, v)| format!("{n} {v:+}"))
            .collect();
        w.push_str(&format!(" ({})", m.join(", ")));
    }
    match s.edge {
        Edge::Advantage => w.push_str(", with advantage"),
        Edge::Disadvantage => w.push_str(", with disadvantage"),
        Edge::Normal => {}
    }
    w
}

/// The chase the options describe.
pub fn build(a: &Args, _lib: &Library) -> Result<Box<dyn Chase>, OptionError> {
    let system = a.system(a.quarry_level, a.pursuer_level, a.quarry_hp, a.pursuer_hp)?;
    let setup = format!(
        "{}; {}; the player characters are the {}",
        side_words("quarry", &system.quarry),
        side_words("pursuer", &system.pursuer),
        who_name(system.pcs).trim_start_matches("the ")
    );
    Ok(Box::new(Built { system, setup }))
}

/// The options at their defaults, as `chase odds bbb` with none given.
pub fn default_args() -> Result<Args, OptionError> {
    crate::model::defaults("bbb")
}
