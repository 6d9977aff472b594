//! Options refused: each names the option, and a number far past every type names the range the chase
//! takes.

use super::*;

#[test]
fn bad_options_name_the_option() {
    let l = lib();
    let err = |args: &[&str]| -> String {
        let mut v = vec!["chase"];
        v.extend_from_slice(args);
        match Cli::try_parse_from(v) {
            Err(e) => e.to_string(),
            // Named by its flag, as the command line names it.
            Ok(c) => {
                let e = c.s.build(&l).err().expect("refused");
                e.named(&format!("--{}", e.option.id().replace('_', "-")))
            }
        }
    };
    assert!(err(&["coc", "--quarry-mov", "-3"]).contains("--quarry-mov"));
    assert!(err(&["bbb", "--quarry-level", "-1"]).contains("--quarry-level"));
    assert!(err(&["bbb", "--quarry-hp", "0"]).contains("--quarry-hp"));
    assert_eq!(
        err(&["coc", "--track", "clear,lava"]),
        "invalid value for --track: `lava` is not a gap (clear, regular, hard, extreme, or regular-barrier:HP, hard-barrier:HP, extreme-barrier:HP)"
    );
    assert_eq!(
        err(&["coc", "--track", "clear"]),
        "invalid value for --track: a track needs 2 to 30 gaps (3 to 31 locations); this one has 1"
    );
    assert_eq!(
        err(&["bbb", "--pursuer-mods", "str=2"]),
        "invalid value for --pursuer-mods: `str` is no chase attribute (wis, cha, dex, int)"
    );
    assert_eq!(
        err(&["bbb", "--quarry-mods", "wis=1,wis=2"]),
        "invalid value for --quarry-mods: `wis=2` gives Wisdom a second time (after `wis=1`): give each attribute once"
    );
    assert_eq!(
        err(&["bbb", "--pursuer-mods", "dex=1, Dexterity=-1"]),
        "invalid value for --pursuer-mods: `Dexterity=-1` gives Dexterity a second time (after `dex=1`): give each attribute once"
    );
    let info = chase(&["bbb"]).info();
    assert_eq!(
        policy_index(&info, Some("floor-it"))
            .unwrap_err()
            .to_string(),
        "invalid value for the policy: Block by Block has no policy `floor-it`; its policies are: slow, swerve, unaware"
    );
}

/// The range a number far past every type is refused with (`… is outside what it takes, LO to HI`) is
/// the one the chase takes: LO and HI are accepted by the system's own checks and LO − 1 and HI + 1
/// refused, for every numeric option of every system (`--quarry-pool -9223372036854775809` named 0 to
/// 4294967295, the type's range, while 0 was refused as "a pool runs from 1 to 20").
#[test]
fn the_range_a_far_number_is_refused_with_is_the_one_the_chase_takes() {
    let lib = lib();
    let cmd = odds_command();
    // Where another option bounds this one, the widest setting of it; where the content's track
    // decides (a start space), the option has no range of its own and is left to its own tests.
    let companions = |system: &str, id: &str| -> Option<Vec<String>> {
        match (system, id) {
            ("urban-world", "start") => Some(vec!["--rungs".into(), "9".into()]),
            ("rbf", "pursuer_start" | "evader_start") => None,
            _ => Some(Vec::new()),
        }
    };
    let mut checked = 0;
    for sub in cmd.get_subcommands() {
        let system = sub.get_name();
        for arg in sub.get_arguments() {
            let id = arg.get_id().as_str();
            let Some(long) = arg.get_long() else { continue };
            if !blockprint_content::numbers::is_numeric(arg) {
                continue;
            }
            let Some(extra) = companions(system, id) else {
                continue;
            };
            let flag = format!("--{long}");
            let words = |v: &str| -> Vec<String> {
                let mut w = vec![system.to_owned(), flag.clone(), v.to_owned()];
                w.extend(extra.iter().cloned());
                w
            };
            let far = parse_odds(&words("-9223372036854775809"))
                .err()
                .unwrap_or_else(|| panic!("{system} {flag}: a far number is taken"));
            let range = far
                .split("outside what it takes, ")
                .nth(1)
                .and_then(|r| r.lines().next())
                .unwrap_or_else(|| panic!("{system} {flag}: {far}"));
            let (lo, hi) = range.split_once(" to ").expect("`LO to HI`");
            let (lo, hi): (i128, i128) = (lo.parse().expect("LO"), hi.parse().expect("HI"));
            // Whether the value passes the parser and the system's checks of this option.
            let takes = |v: i128| -> bool {
                match parse_odds(&words(&v.to_string())) {
                    Err(_) => false,
                    Ok((args, _)) => match args.build(&lib) {
                        Ok(_) => true,
                        Err(e) => e.option.id() != id,
                    },
                }
            };
            assert!(
                takes(lo),
                "{system} {flag} {lo}: the named range starts there"
            );
            assert!(
                takes(hi),
                "{system} {flag} {hi}: the named range ends there"
            );
            assert!(
                !takes(lo - 1),
                "{system} {flag} {}: below the range",
                lo - 1
            );
            assert!(
                !takes(hi + 1),
                "{system} {flag} {}: above the range",
                hi + 1
            );
            checked += 1;
        }
    }
    assert!(checked >= 20, "{checked} numeric options checked");
}
