//! The `chase … coc` options, read into a chase (Args, build).

use super::*;

/// `chase … coc` options.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// The quarry's MOV (before the speed roll).
    #[arg(long, default_value_t = 8, allow_hyphen_values = true, value_parser = clap::value_parser!(i32).range(1..=30))]
    pub quarry_mov: i32,
    /// The pursuer's MOV.
    #[arg(long, default_value_t = 8, allow_hyphen_values = true, value_parser = clap::value_parser!(i32).range(1..=30))]
    pub pursuer_mov: i32,
    /// The quarry's speed-roll skill: CON on foot, Drive Auto driving.
    #[arg(long, default_value_t = 50, allow_hyphen_values = true, value_parser = clap::value_parser!(u32).range(1..=99))]
    pub quarry_speed: u32,
    /// The pursuer's speed-roll skill.
    #[arg(long, default_value_t = 50, allow_hyphen_values = true, value_parser = clap::value_parser!(u32).range(1..=99))]
    pub pursuer_speed: u32,
    /// The quarry's skill at hazards and barriers (Dodge, Climb, Drive Auto …).
    #[arg(long, default_value_t = 50, allow_hyphen_values = true, value_parser = clap::value_parser!(u32).range(1..=99))]
    pub quarry_skill: u32,
    /// The pursuer's skill at hazards and barriers.
    #[arg(long, default_value_t = 50, allow_hyphen_values = true, value_parser = clap::value_parser!(u32).range(1..=99))]
    pub pursuer_skill: u32,
    /// The quarry's DEX (the higher moves first).
    #[arg(long, default_value_t = 50, allow_hyphen_values = true, value_parser = clap::value_parser!(u32).range(1..=200))]
    pub quarry_dex: u32,
    /// The pursuer's DEX.
    #[arg(long, default_value_t = 50, allow_hyphen_values = true, value_parser = clap::value_parser!(u32).range(1..=200))]
    pub pursuer_dex: u32,
    /// The quarry's vehicle Build (0: on foot); rams barriers under `--policy ram`.
    #[arg(long, default_value_t = 0, allow_hyphen_values = true, value_parser = clap::value_parser!(u32).range(0..=20))]
    pub quarry_build: u32,
    /// The pursuer's vehicle Build.
    #[arg(long, default_value_t = 0, allow_hyphen_values = true, value_parser = clap::value_parser!(u32).range(0..=20))]
    pub pursuer_build: u32,
    /// Opening range in locations (the rules: two, one for a tenser chase).
    #[arg(long, default_value_t = 2, allow_hyphen_values = true, value_parser = clap::value_parser!(u8).range(1..=2))]
    pub range: u8,
    /// The kit's seeded track: the one `blockprint kit coc --seed N` prints.
    #[arg(long, default_value_t = 1, allow_hyphen_values = true, value_parser = clap::value_parser!(u64).range(0..=(1u64 << 53) - 1), conflicts_with = "track")]
    pub track_seed: u64,
    /// A track of your own: its gaps in order, e.g. `clear,regular,hard-barrier:15,extreme,clear`.
    #[arg(long, value_name = "GAPS")]
    pub track: Option<String>,
    /// Call the chase off after this many rounds (its chance is reported as an ending).
    #[arg(long, default_value_t = MAX_ROUNDS, allow_hyphen_values = true, value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_ROUNDS)))]
    pub rounds: u32,
}

impl Args {
    pub(super) fn system(
        &self,
        lib: &Library,
        pursuer_mov: i32,
        skill: Option<u32>,
    ) -> Result<Coc, OptionError> {
        let gaps = match &self.track {
            Some(t) => parse_track(t)?,
            None => seeded_track(lib, self.track_seed)
                .map_err(|p| OptionError::new(Opt::TrackSeed, p))?,
        };
        let runner = |mov, speed, sk: u32, dex, build| Runner {
            mov,
            speed,
            skill: skill.unwrap_or(sk),
            dex,
            build,
        };
        Ok(Coc {
            quarry: runner(
                self.quarry_mov,
                self.quarry_speed,
                self.quarry_skill,
                self.quarry_dex,
                self.quarry_build,
            ),
            pursuer: runner(
                pursuer_mov,
                self.pursuer_speed,
                self.pursuer_skill,
                self.pursuer_dex,
                self.pursuer_build,
            ),
            gaps,
            range: self.range,
            rounds: self.rounds,
            best: std::sync::OnceLock::new(),
        })
    }

    /// The system these options describe (what `build` wraps).
    pub fn to_system(&self, lib: &Library) -> Result<Coc, OptionError> {
        self.system(lib, self.pursuer_mov, None)
    }

    pub(super) fn track_words(&self, c: &Coc) -> String {
        let gaps: Vec<String> = c.gaps.iter().map(Gap::words).collect();
        let from = match &self.track {
            Some(_) => "given track".to_string(),
            None => format!("the kit's seeded track {}", self.track_seed),
        };
        format!(
            "{from}, {} locations: {}",
            c.gaps.len() + 1,
            gaps.join(", ")
        )
    }
}

fn runner_words(name: &str, r: &Runner) -> String {
    let mut w = format!(
        "{name} MOV {}, speed roll {}%, skill {}%, DEX {}",
        r.mov, r.speed, r.skill, r.dex
    );
    if r.build > 0 {
        w.push_str(&format!(", vehicle Build {}", r.build));
    }
    w
}

/// The chase the options describe.
pub fn build(a: &Args, lib: &Library) -> Result<Box<dyn Chase>, OptionError> {
    let system = a.system(lib, a.pursuer_mov, None)?;
    let setup = format!(
        "{}; {}; opening range {}; {}",
        runner_words("quarry", &system.quarry),
        runner_words("pursuer", &system.pursuer),
        system.range,
        a.track_words(&system)
    );
    Ok(Box::new(Built { system, setup }))
}

/// The options at their defaults, as `chase odds coc` with none given.
pub fn default_args() -> Result<Args, OptionError> {
    crate::model::defaults("coc")
}
