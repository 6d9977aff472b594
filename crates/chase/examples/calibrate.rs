//! The calibration of the default [`Budget`]: for each question (the words after `blockprint chase odds`,
//! one question per argument, or the built-in list below), the CPU time of the exact attempt and how it
//! ended, then of the simulation that takes over and how many chases it ran. A question whose exact
//! attempt stops at the work limit shows what the limit costs in CPU for that system on this machine;
//! the limits are set so that the slowest stays within half a second, and the simulation within 0.4 s.
//!
//!     cargo run --release -p blockprint-chase --example calibrate
//!     cargo run --release -p blockprint-chase --example calibrate -- "coc --pursuer-mov 12 --policy best"
//!     EXACT_WORK=1000000 SIM_WORK=100000 cargo run …   # other limits than the defaults

use blockprint_chase::{Budget, Method, Stop, parse_odds, policy_index};

/// CPU seconds this thread has used.
fn cpu() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes the timespec it is given and nothing else.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    t.tv_sec as f64 + t.tv_nsec as f64 / 1e9
}

const TRACK: &str = "clear,hard,regular-barrier:10,extreme,clear,hard-barrier:15,regular,regular,hard,extreme,clear,clear,regular,hard,extreme,clear,regular,regular,hard,clear,clear,clear,regular,extreme,hard,clear,regular,clear,hard,clear";

fn questions() -> Vec<String> {
    let mut v: Vec<String> = [
        "bbb",
        "bbb --rounds 1",
        "bbb --rounds 1 --policy swerve --quarry-mods dex=1",
        "bbb --rounds 1 --quarry-mods dex=2,wis=-1 --pursuer-faster",
        "bbb --quarry-level 5 --pursuer-level 5 --quarry-hp 60 --pursuer-hp 60",
        "bbb --policy unaware --quarry-hp 200 --pursuer-hp 200",
        "coc",
        "coc --pursuer-mov 30 --policy best",
        "coc --pursuer-mov 30",
        "urban-world",
        "rbf",
        "storypath",
        "storypath --quarry-pool 20 --pursuer-pool 20 --laps 20 --limit 40",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for gaps in [15, 20, 30] {
        let track: Vec<&str> = TRACK.split(',').take(gaps).collect();
        for policy in ["reckless", "cautious", "ram", "best"] {
            for mov in [9, 14] {
                v.push(format!(
                    "coc --track {} --pursuer-mov {mov} --pursuer-build 3 --policy {policy}",
                    track.join(",")
                ));
            }
        }
    }
    v
}

fn main() {
    let (lib, _) = blockprint_content::load(&blockprint_content::ContentRoot::from_option(None))
        .expect("the built-in content loads");
    let args: Vec<String> = std::env::args().skip(1).collect();
    let qs = if args.is_empty() { questions() } else { args };
    let defaults = Budget::default();
    println!(
        "exact work {}, simulation work {}",
        defaults.exact_work, defaults.sim_work
    );
    println!(
        "{:>8} {:>10} {:>12} {:>8} {:>10} {:>8}  question",
        "exact s", "work", "", "sim s", "work", "runs"
    );
    for q in qs {
        let words: Vec<String> = q.split_whitespace().map(String::from).collect();
        let (system, options) = match parse_odds(&words) {
            Ok(x) => x,
            Err(e) => {
                eprintln!("{q}: {e}");
                continue;
            }
        };
        let c = system.build(&lib).expect("good options");
        let p = policy_index(&c.info(), options.policy.as_deref()).expect("a policy");
        let mut budget = Budget::default();
        if let Some(w) = std::env::var("EXACT_WORK")
            .ok()
            .and_then(|w| w.parse().ok())
        {
            budget.exact_work = w;
        }
        if let Some(w) = std::env::var("SIM_WORK").ok().and_then(|w| w.parse().ok()) {
            budget.sim_work = w;
        }
        let t0 = cpu();
        let exact = c.exact(p, &budget);
        let t1 = cpu();
        let exact_work = budget.spent();
        let how = match &exact {
            Ok(o) => match o.method {
                Method::Exact { states } => format!("{states} states"),
                _ => "?".into(),
            },
            Err(Stop::TooBig(t)) if t.reason.contains("budget") => "past budget".into(),
            Err(Stop::TooBig(_)) => "too big".into(),
            Err(Stop::Cancelled) => "cancelled".into(),
        };
        let (sim_s, runs) = if exact.is_err() {
            let t2 = cpu();
            let s = c.simulate(p, blockprint_chase::SIM_RUNS, 1, "", &budget);
            let t3 = cpu();
            match s {
                Ok(o) => match o.method {
                    Method::Simulated { runs, .. } => (format!("{:.3}", t3 - t2), runs.to_string()),
                    _ => ("?".into(), "?".into()),
                },
                Err(e) => (format!("{:.3}", t3 - t2), format!("refused: {e}")),
            }
        } else {
            ("-".into(), "-".into())
        };
        let short = if q.len() > 90 {
            format!("{}…", &q[..90])
        } else {
            q.clone()
        };
        let sim_work = budget.spent() - exact_work;
        println!(
            "{:>8.3} {:>10} {:>12} {:>8} {:>10} {:>8}  {short}",
            t1 - t0,
            exact_work,
            how,
            sim_s,
            sim_work,
            runs
        );
    }
}
