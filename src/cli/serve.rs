//! `blockprint serve`: the studio, a local web page to make, preview and download every kind, and to
//! look up the tables and the odds (see [`crate::studio`]).

use std::path::PathBuf;

use super::{ContentArg, FontArgs};

/// Open the studio: a page in your browser to make, preview and download every document kind, roll on
/// the tables, work out the odds of any dice and run a campaign's weeks. It listens on this machine only (127.0.0.1) unless
/// --host says otherwise; Ctrl-C stops it.
#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    #[command(flatten)]
    pub content: ContentArg,
    #[command(flatten)]
    pub fonts: FontArgs,
    /// Output folder; each make writes into a folder of its own below it (`1-case`, `2-srd` …).
    #[arg(long, value_name = "DIR", default_value = "out")]
    pub out: PathBuf,
    /// Port to listen on; 0 takes any free one (the address is printed).
    #[arg(long, value_name = "N", default_value_t = 7878)]
    pub port: u16,
    /// Address to listen on. Anything but 127.0.0.1 or ::1 lets other machines make files and roll
    /// on your tables, and prints a warning.
    #[arg(long, value_name = "ADDRESS", default_value = "127.0.0.1")]
    pub host: String,
    /// Open the page in your default browser.
    #[arg(long)]
    pub open: bool,
    /// Makes that may run at once; another is refused until one ends.
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u16).range(1..=16))]
    pub max_jobs: u16,
    /// A campaign folder (holding campaign.toml) for the Campaign page to open first.
    #[arg(long, value_name = "DIR")]
    pub campaign: Option<PathBuf>,
    /// The one folder the Campaign page may open or start campaigns in (a folder name on the page is
    /// taken from it; anything outside is refused). With --host beyond this machine it is
    /// OUT/campaigns unless given; on this machine alone, any folder may be opened unless it is given.
    #[arg(long, value_name = "DIR")]
    pub campaigns: Option<PathBuf>,
}

pub(super) fn run(
    args: ServeArgs,
    log: std::sync::Arc<super::term::Terminal>,
) -> crate::error::Result<()> {
    crate::studio::serve(crate::studio::Options {
        content: args.content.content,
        templates: args.content.templates,
        fonts: args.fonts.load()?,
        out: args.out,
        host: args.host,
        port: args.port,
        open: args.open,
        max_jobs: usize::from(args.max_jobs),
        campaign: args.campaign,
        campaigns: args.campaigns,
        log,
    })
}
