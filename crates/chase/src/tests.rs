//! Unit tests of the framework and of the systems of this crate: exact against seeded simulation, hand-
//! worked cases, play logs replayed against the rules.

use super::*;

fn lib() -> Library {
    let (lib, diags) =
        blockprint_content::load(&blockprint_content::ContentRoot::from_option(None))
            .expect("built-in content loads");
    assert!(
        diags.iter().all(|d| !d.is_error()),
        "built-in content has errors"
    );
    lib
}

#[test]
fn smoke_measure() {
    use clap::Parser;
    #[derive(clap::Parser)]
    struct Cli {
        #[command(subcommand)]
        s: SystemArgs,
    }
    let lib = lib();
    for args in [
        vec!["x", "bbb", "--rounds", "1"],
        vec!["x", "bbb", "--rounds", "2"],
        vec!["x", "bbb", "--rounds", "3"],
        vec!["x", "bbb"],
        vec!["x", "coc"],
        vec!["x", "coc", "--pursuer-mov", "9"],
    ] {
        let cli = Cli::parse_from(&args);
        let chase = cli.s.build(&lib).unwrap();
        let t = std::time::Instant::now();
        let e = chase.exact(0, Limits::default());
        eprintln!(
            "{:?} exact {:?} in {:?}",
            args,
            e.as_ref().map(|o| (
                o.method.clone(),
                o.endings.iter().map(|e| e.percent).collect::<Vec<_>>()
            )),
            t.elapsed()
        );
        let t = std::time::Instant::now();
        let s = chase.simulate(0, 100_000, 7, "test");
        eprintln!(
            "   sim {:?} in {:?}",
            s.endings.iter().map(|e| e.percent).collect::<Vec<_>>(),
            t.elapsed()
        );
    }
}
