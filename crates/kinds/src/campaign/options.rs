//! `campaign new`'s options, defined once: the command line flattens them into its `campaign new` (their
//! flags and help come from here), the studio draws its New campaign form from the same definition and
//! reads the form's values with it, and `blockprint-app` starts the campaign from them.

use std::path::PathBuf;

use crate::Paper;

/// How to start a campaign.
#[derive(Debug, Clone, clap::Args)]
pub struct NewOptions {
    /// The campaign folder (created if needed; must not hold a campaign yet).
    pub dir: PathBuf,
    /// The year the campaign starts in (case numbers YYYY-NN).
    #[arg(long, default_value_t = 1976, value_parser = clap::value_parser!(i32).range(1900..=2100))]
    pub year: i32,
    /// Campaign seed: every roll of the campaign comes from it. A random one is chosen and printed when
    /// left out.
    #[arg(long, value_parser = clap::value_parser!(u64).range(0..=blockprint_content::roll::case::MAX_SEED))]
    pub seed: Option<u64>,
    /// The squad by name, comma-separated; `Name=assignment` gives a detective's least-wanted
    /// assignment (otherwise it is rolled on the content's table and logged).
    #[arg(
        long,
        value_name = "NAMES",
        required_unless_present = "roll",
        conflicts_with = "roll"
    )]
    pub detectives: Option<String>,
    /// Rolled detectives: roll N with the detective generator instead of naming them (their sheets go
    /// to DIR/detectives/).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=super::MAX_SQUAD as i64))]
    pub roll: Option<u32>,
    /// Paper size of the packets, sheets and status.
    #[arg(long, value_enum, ignore_case = true, default_value = "a4")]
    pub paper: Paper,
    /// Which files each case packet (and rolled detective sheet) is written as, comma-separated; `none`
    /// writes none.
    #[arg(long, value_delimiter = ',', default_value = "pdf,md,json")]
    pub packets: Vec<String>,
}

impl NewOptions {
    /// What `campaign new` does, in one line: the New campaign form's, the same as `campaign new --help`
    /// says (tests/fronts.rs holds them together).
    pub const ABOUT: &'static str = "Start a campaign in DIR: the squad, each detective's starting case (with its packet) and DIR/campaign.toml, the state file every other command reads and extends";

    /// The options as a command of their own (`new`, with [`NewOptions::ABOUT`]), for a front that draws
    /// a form from them or reads a form's values with them.
    pub fn command() -> clap::Command {
        use clap::Args;
        NewOptions::augment_args(clap::Command::new("new").about(Self::ABOUT))
    }

    /// The options read from words as `campaign new` reads them (`["--year=1977", "--", "DIR"]`), or the
    /// parser's own error text.
    pub fn parse(words: &[String]) -> Result<NewOptions, String> {
        use clap::FromArgMatches;
        let mut cmd = blockprint_content::numbers::harden(
            Self::command()
                .no_binary_name(true)
                .bin_name("blockprint campaign new")
                .color(clap::ColorChoice::Never),
        );
        cmd.try_get_matches_from_mut(words)
            .and_then(|m| NewOptions::from_arg_matches(&m))
            .map_err(|e| {
                // A number out of its option's range in the command line's words.
                let args: Vec<std::ffi::OsString> = words.iter().map(Into::into).collect();
                blockprint_content::numbers::explain(&cmd, &args, &e)
                    .unwrap_or_else(|| e.render().to_string())
            })
    }
}
