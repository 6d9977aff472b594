//! The `chase … rbf` options and the content they read (the track), read into a chase (Args, build).

use super::*;

/// The track of the content with this id, as the model reads it.
pub fn track_of(t: &blockprint_content::Track) -> Track {
    let first = t.spaces.first().map_or(0, |s| s.n.value);
    let cells = t
        .spaces
        .iter()
        .map(|s| Cell {
            challenge: s.challenge.as_ref().map(|c| ChallengeCell {
                title: c.title.clone(),
                plus: c.plus.value,
                minus: c.minus.value,
                damage: c.damage,
            }),
            gate: s.gate.is_some(),
            exit: s.exit.is_some(),
            name: s.name.clone(),
        })
        .collect();
    let start = |side: blockprint_content::Side| {
        t.starts
            .iter()
            .find(|s| s.side == side)
            .map(|s| s.space.value)
    };
    Track {
        id: t.id.value.clone(),
        title: t.title.clone(),
        first,
        cells,
        pursuer_start: start(blockprint_content::Side::Pursuer),
        evader_start: start(blockprint_content::Side::Evader),
    }
}

/// The kit's track when none is named: the first `[[track]]` whose id starts with `rbf.`, else the first.
pub fn default_track(lib: &Library) -> Option<&blockprint_content::Track> {
    lib.tracks
        .iter()
        .find(|t| t.id.value.starts_with("rbf."))
        .or_else(|| lib.tracks.first())
}

/// `chase odds rbf` options.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// The `[[track]]` of the content to run on (default: the kit's, the Tenderloin footchase).
    #[arg(long, value_name = "ID")]
    pub track: Option<String>,
    /// The pursuer's speed; its starting Sprint Tokens follow the table (16 or less: 0 … 29 or more: 4).
    #[arg(long, value_name = "SPEED", conflicts_with = "pursuer_tokens")]
    pub pursuer_speed: Option<u32>,
    /// The pursuer's starting Sprint Tokens (0 to 9), instead of a speed.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=9))]
    pub pursuer_tokens: Option<u32>,
    /// The evader's speed.
    #[arg(long, value_name = "SPEED", conflicts_with = "evader_tokens")]
    pub evader_speed: Option<u32>,
    /// The evader's starting Sprint Tokens (0 to 9).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=9))]
    pub evader_tokens: Option<u32>,
    /// The pursuer's start space (default: the track's first pursuer).
    #[arg(long, value_name = "SPACE", allow_negative_numbers = true)]
    pub pursuer_start: Option<i64>,
    /// The evader's start space (default: the track's first evader).
    #[arg(long, value_name = "SPACE", allow_negative_numbers = true)]
    pub evader_start: Option<i64>,
    /// Strike reach in spaces (1 unarmed, 1 to 3).
    #[arg(long, default_value_t = 1, value_name = "SPACES", value_parser = clap::value_parser!(i64).range(1..=3))]
    pub reach: i64,
}

impl Default for Args {
    /// The command line's defaults (constants, checked by the tests: parsing them cannot fail).
    fn default() -> Self {
        crate::model::defaults("rbf").expect("the rbf options' defaults parse")
    }
}

/// The chase the options describe.
pub fn system(args: &Args, lib: &Library) -> Result<Rbf, OptionError> {
    let t = match &args.track {
        Some(id) => lib
            .tracks
            .iter()
            .find(|t| &t.id.value == id)
            .ok_or_else(|| {
                OptionError::new(
                    Opt::Track,
                    Problem::NoSuchTrack {
                        given: id.clone(),
                        tracks: lib.tracks.iter().map(|t| t.id.value.clone()).collect(),
                    },
                )
            })?,
        None => {
            default_track(lib).ok_or_else(|| OptionError::new(Opt::Track, Problem::NoTracks))?
        }
    };
    let track = track_of(t);
    let start = [
        args.pursuer_start
            .or(track.pursuer_start)
            .unwrap_or(track.first),
        args.evader_start
            .or(track.evader_start)
            .unwrap_or(track.first),
    ];
    let tokens = [
        args.pursuer_tokens
            .unwrap_or_else(|| args.pursuer_speed.map_or(0, tokens_for_speed)),
        args.evader_tokens
            .unwrap_or_else(|| args.evader_speed.map_or(0, tokens_for_speed)),
    ];
    if !(1..=3).contains(&args.reach) {
        return Err(OptionError::new(
            Opt::Reach,
            Problem::Reach { got: args.reach },
        ));
    }
    let mut r = Rbf::new(track, start, tokens)?;
    r.reach = args.reach;
    Ok(r)
}

/// The options in words.
pub fn setup(r: &Rbf) -> String {
    format!(
        "track {} ({}); pursuer from space {} with {} Sprint Token{}, evader from space {} with {}; Strike reach {}",
        r.track.id,
        r.track.title,
        r.start[0],
        r.tokens[0],
        if r.tokens[0] == 1 { "" } else { "s" },
        r.start[1],
        r.tokens[1],
        r.reach
    )
}

pub fn build(args: &Args, lib: &Library) -> Result<Box<dyn Chase>, OptionError> {
    let system = system(args, lib)?;
    let setup = setup(&system);
    Ok(Box::new(Built { system, setup }))
}
