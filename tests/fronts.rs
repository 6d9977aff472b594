//! The layering of the fronts (issue 34): the studio is an adapter over `blockprint-app`, never over the
//! command line, and the application crate neither parses command lines, serves HTTP nor prints.

use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Each line of each Rust file under `dir` (relative to the repository) that contains one of `needles`.
fn lines_naming(dir: &str, needles: &[&str]) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(&root().join(dir), &mut files);
    assert!(!files.is_empty(), "no Rust files under {dir}");
    let mut found = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        for (n, line) in text.lines().enumerate() {
            if needles.iter().any(|w| line.contains(w)) {
                found.push(format!("{}:{}: {}", f.display(), n + 1, line.trim()));
            }
        }
    }
    found
}

#[test]
fn the_studio_never_names_the_command_line() {
    let found = lines_naming("src/studio", &["crate::cli", "super::cli", "cli::"]);
    assert!(
        found.is_empty(),
        "the studio calls blockprint-app, not the command line:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_application_crate_has_no_clap_no_http_and_prints_nothing() {
    let manifest = std::fs::read_to_string(root().join("crates/app/Cargo.toml")).unwrap();
    let deps = manifest.split("[dependencies]").nth(1).unwrap();
    for dep in ["clap", "axum", "tokio", "indicatif"] {
        assert!(
            !deps.lines().any(|l| l.trim_start().starts_with(dep)),
            "crates/app depends on {dep}"
        );
    }
    let found = lines_naming(
        "crates/app/src",
        &[
            "println!",
            "print!(",
            "eprint",
            "std::io::stdout",
            "std::io::stderr",
        ],
    );
    assert!(found.is_empty(), "crates/app prints:\n{}", found.join("\n"));
    // Nor do the library crates below it: what they have to say goes to a Sink.
    for dir in ["crates/kinds/src", "crates/render/src", "crates/kind/src"] {
        let found: Vec<String> = lines_naming(dir, &["eprintln!", "println!", "eprint!("])
            .into_iter()
            .filter(|l| !l.contains("/tests.rs:") && !l.contains("//"))
            .collect();
        assert!(found.is_empty(), "{dir} prints:\n{}", found.join("\n"));
    }
}

#[test]
fn the_new_campaign_form_says_what_campaign_new_says() {
    let cli = blockprint::cli::help::command();
    let new = cli
        .find_subcommand("campaign")
        .and_then(|c| c.find_subcommand("new"))
        .unwrap();
    assert_eq!(
        new.get_about().map(|a| a.to_string()).as_deref(),
        Some(blockprint::campaign::NewOptions::ABOUT)
    );
    // The form's fields are the options `campaign new` takes, in its order.
    let form: Vec<String> = blockprint::campaign::NewOptions::command()
        .get_arguments()
        .map(|a| a.get_id().to_string())
        .collect();
    let cli_args: Vec<String> = new
        .get_arguments()
        .map(|a| a.get_id().to_string())
        .filter(|id| form.contains(id))
        .collect();
    assert_eq!(form, cli_args);
    assert_eq!(form.len(), 7);
}

#[test]
fn page_faults_go_to_the_sink_that_asks_for_them_and_to_no_other() {
    // No process-wide report: whether pages are checked is the sink's to say, and each fault reaches
    // it as an event. A template of the user's prints 5 pt text on the caseload sheet.
    use blockprint::app::{Collector, Event};
    use blockprint::project::{Batch, Output, Project};
    let dir = tempfile::tempdir().unwrap();
    let templates = dir.path().join("templates");
    std::fs::create_dir_all(templates.join("sheet")).unwrap();
    let text = std::fs::read_to_string(root().join("templates/sheet/caseload.typ")).unwrap();
    std::fs::write(
        templates.join("sheet/caseload.typ"),
        text + "\n#text(size: 5pt)[Tiny words]\n",
    )
    .unwrap();
    let project = Project::open(None, Some(&templates)).unwrap();
    let faults = |sink: &Collector, out: &str| -> Vec<String> {
        let output = Output::new(dir.path().join(out));
        project
            .make(
                &[("sheet", serde_json::json!({}))],
                &Batch::default(),
                &output,
                sink,
            )
            .unwrap();
        sink.take()
            .into_iter()
            .filter_map(|e| match e {
                Event::PageFault(line) => Some(line),
                _ => None,
            })
            .collect()
    };
    let found = faults(&Collector::checking_pages(), "checked");
    assert!(
        found.iter().any(|l| l
            == "sheet: caseload.pdf p. 2 at 25.0 × 24.9 mm: legibility: 5.0 pt text (at least 6 pt): “Tiny words”"),
        "{found:#?}"
    );
    assert_eq!(
        faults(&Collector::default(), "unchecked"),
        Vec::<String>::new()
    );
}

#[test]
fn every_error_code_is_unique_and_documented() {
    use blockprint::chase::Problem;
    use blockprint::error::Coded;
    let doc = std::fs::read_to_string(root().join("docs/errors.md")).unwrap();
    let listed: Vec<(String, u8)> = doc
        .lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .map(|l| {
            let (code, rest) = l.split_once("` | ").unwrap();
            let exit = rest.split(" |").next().unwrap().parse().unwrap();
            (code.to_owned(), exit)
        })
        .collect();
    let codes: Vec<&str> = listed.iter().map(|(c, _)| c.as_str()).collect();
    let defined: Vec<&str> = Problem::CODES
        .into_iter()
        .chain(blockprint::roll::RollError::CODES)
        .chain(blockprint::error::Error::CODES)
        .chain(blockprint::generators::error::Problem::CODES)
        .chain(blockprint::generators::campaign::StepProblem::CODES)
        .chain(blockprint::error::Bug::CODES)
        .chain(blockprint::render::error::RenderError::CODES)
        .chain(blockprint::render::KindError::CODES)
        .chain(blockprint::app::error::AppError::CODES)
        .chain(blockprint::front_error::FrontError::CODES)
        .collect();
    assert_eq!(codes, defined, "docs/errors.md lists the codes in order");
    let mut unique = codes.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), codes.len(), "a code is listed twice");
    // The exit statuses listed are the ones the errors map to.
    let exit_of = |code: &str| listed.iter().find(|(c, _)| c == code).unwrap().1;
    assert_eq!(
        exit_of("chase-missing-table"),
        Problem::MissingTable { table: "t".into() }.exit_code()
    );
    assert_eq!(
        exit_of("chase-reach"),
        Problem::Reach { got: 4 }.exit_code()
    );
    assert_eq!(
        exit_of("chase-defaults"),
        Problem::Defaults {
            message: String::new()
        }
        .exit_code()
    );
    // The fronts' errors (the root crate has no unit tests): each its listed code and status, in order.
    let fronts = blockprint::front_error::one_of_each();
    let codes: Vec<&str> = fronts.iter().map(Coded::code).collect();
    assert_eq!(codes, blockprint::front_error::FrontError::CODES);
    for e in &fronts {
        assert_eq!(exit_of(e.code()), e.exit_code(), "{}", e.code());
        // No flag but in a command it quotes (`blockprint make --list`).
        let said = e.to_string();
        assert!(
            !said.contains("--") || said.contains("`blockprint "),
            "{}: {said}",
            e.code()
        );
    }
    for b in [
        blockprint::error::Bug::Panicked { what: "x" },
        blockprint::error::Bug::json("x", "y"),
        blockprint::error::Bug::system("x", "y"),
    ] {
        assert_eq!(exit_of(b.code()), b.exit_code(), "{}", b.code());
    }
    let render = blockprint::render::error::RenderError::NoFontFolder { dir: "x".into() };
    assert_eq!(exit_of(render.code()), render.exit_code());
    let app = blockprint::app::error::AppError::NothingToMake { kind: "x".into() };
    assert_eq!(exit_of(app.code()), app.exit_code());
    use blockprint::generators::campaign::StepProblem;
    for p in [
        StepProblem::EmptySquad,
        StepProblem::SquadGone,
        StepProblem::Dice {
            dice: "1d6".into(),
            message: String::new(),
        },
    ] {
        assert_eq!(exit_of(p.code()), p.exit_code(), "{}", p.code());
    }
}

#[test]
fn every_option_a_typed_error_names_is_a_flag() {
    use blockprint::error::Coded;
    // The libraries name options by their ids, in their own words; the command line's one mapping
    // (`cli::flag`) turns each into a flag, which must be a flag of some command.
    fn longs(c: &clap::Command, into: &mut std::collections::BTreeSet<String>) {
        for a in c.get_arguments() {
            if let Some(l) = a.get_long() {
                into.insert(format!("--{l}"));
            }
        }
        for s in c.get_subcommands() {
            longs(s, into);
        }
    }
    let mut flags = std::collections::BTreeSet::new();
    longs(&blockprint::cli::help::command(), &mut flags);
    let ids = blockprint::app::error::OPTIONS
        .iter()
        .chain(&blockprint::front_error::OPTIONS)
        .map(|(id, _)| *id)
        .chain([blockprint::render::error::FONT_PATH])
        .chain(blockprint::generators::campaign::StepProblem::OPTIONS)
        .chain(blockprint::generators::campaign::file::OPTIONS)
        .chain(
            blockprint::error::Error::Conflict {
                dir: "x".into(),
                theirs: String::new(),
                ours: String::new(),
            }
            .options(),
        )
        .chain(
            blockprint::front_error::one_of_each()
                .into_iter()
                .flat_map(|e| e.options()),
        );
    for id in ids {
        let flag = blockprint::cli::flag(id);
        assert!(
            flags.contains(&flag),
            "{id}: {flag} is no flag of blockprint"
        );
    }
}

#[test]
fn every_kind_option_the_library_names_is_a_flag_of_make() {
    // The kinds name their options in their own words; the command line's one mapping (cli::flag)
    // turns each id into a flag, which must be a flag of the command that makes that kind (`to` is
    // `export`'s, which picks the `export-…` kind).
    let cli = blockprint::cli::help::command();
    let make = cli.find_subcommand("make").unwrap();
    let mut flags: std::collections::BTreeSet<String> = std::collections::BTreeSet::new();
    for c in make.get_subcommands().chain(cli.find_subcommand("export")) {
        for a in c.get_arguments() {
            if let Some(l) = a.get_long() {
                flags.insert(format!("--{l}"));
            }
        }
    }
    for opt in blockprint::generators::error::Opt::ALL {
        let flag = blockprint::cli::flag(opt.id());
        assert!(flags.contains(&flag), "{opt:?}: {flag} is no flag of make");
    }
}

#[test]
fn every_chase_option_the_library_names_is_a_flag_of_chase_odds() {
    // The chase crate names options in its own words; the command line's one mapping turns each
    // into a flag, which must be a flag of some system's `chase odds`.
    let cli = blockprint::cli::help::command();
    let odds = cli
        .find_subcommand("chase")
        .and_then(|c| c.find_subcommand("odds"))
        .unwrap();
    let mut flags: std::collections::BTreeSet<String> = odds
        .get_arguments()
        .filter_map(|a| a.get_long().map(|l| format!("--{l}")))
        .collect();
    for system in odds.get_subcommands() {
        for a in system.get_arguments() {
            if let Some(l) = a.get_long() {
                flags.insert(format!("--{l}"));
            }
        }
    }
    for opt in blockprint::chase::Opt::ALL {
        if opt == blockprint::chase::Opt::System {
            continue;
        }
        let flag = blockprint::cli::chase::flag(opt);
        assert!(
            flags.contains(&flag),
            "{opt:?}: {flag} is no flag of chase odds"
        );
    }
}

/// The exit status `docs/errors.md` lists for each code.
fn documented_exits() -> std::collections::BTreeMap<String, i32> {
    let doc = std::fs::read_to_string(root().join("docs/errors.md")).unwrap();
    doc.lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .map(|l| {
            let (code, rest) = l.split_once("` | ").unwrap();
            (
                code.to_owned(),
                rest.split(" |").next().unwrap().parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn a_real_command_of_each_error_family_exits_with_the_documented_status() {
    // One command per family of codes that a user can reach from the command line (the `bug-…` and
    // `kind-…` families are bugs no command reaches; `roll-…` needs content the checker accepts and a
    // roll still fails on, which the built-in content never is): the code it raises, the status
    // docs/errors.md lists for it, and the start of the message, flags named the command line's way.
    let exits = documented_exits();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let o = |s: &str| out.to_str().unwrap().to_owned() + s;
    let bad = dir.path().join("bad");
    std::fs::create_dir_all(&bad).unwrap();
    std::fs::write(bad.join("broken.toml"), "[[table]\n").unwrap();
    let (taken, fonts, numbers) = (o("/taken"), o("/fonts"), o("/numbers"));
    crate::support::ok(&crate::support::blockprint(&[
        "npc", "--seed", "1", "--format", "json", "--out", &taken,
    ]));
    // A campaign of one detective, whose one open case is 1976-01.
    let camp = o("/campaign");
    crate::support::ok(&crate::support::blockprint(&[
        "campaign",
        "new",
        &camp,
        "--seed",
        "1",
        "--detectives",
        "Ann",
        "--packets",
        "none",
    ]));
    let cases: Vec<(&str, Vec<&str>, &str)> = vec![
        // (A number outside an option's own range is clap's refusal since every fixed range is in the
        // option's parser; a start past the ladder the other options make is the chase's own.)
        (
            "chase-ladder-start",
            vec!["chase", "odds", "urban-world", "--start", "5"],
            "error: invalid value for --start: the chase starts on one of the ladder's rungs, 1 to 3",
        ),
        (
            "content",
            vec!["check", "--content", bad.to_str().unwrap()],
            "error[parse]: invalid TOML",
        ),
        (
            "conflict",
            vec!["npc", "--seed", "2", "--format", "json", "--out", &taken],
            "\n  = help: pass --force to replace it, or choose another --out folder\n",
        ),
        (
            "render-no-font-folder",
            vec!["case", "--font-path", "/no/such/folder", "--out", &fonts],
            "error: --font-path /no/such/folder: no such folder\n",
        ),
        (
            "app-past-highest-number",
            vec![
                "case",
                "--first-number",
                "99998",
                "--count",
                "3",
                "--format",
                "json",
                "--out",
                &numbers,
            ],
            "error: --first-number 99998 with --count 3 would number",
        ),
        (
            "cli-check-pages-unused",
            vec!["tables", "--check-pages"],
            "error: --check-pages checks the pages",
        ),
        (
            "campaign-no-such-case",
            vec!["campaign", "close", &camp, "1976-99"],
            "error: there is no case 1976-99; the open cases are 1976-01\n",
        ),
        (
            "studio-host",
            vec!["serve", "--host", "example.com", "--port", "0"],
            "error: --host example.com: give an IP address",
        ),
    ];
    for (code, args, starts) in cases {
        let r = crate::support::blockprint(&args);
        // (`check` reports the content's errors on stdout.)
        let err = crate::support::stdout(&r) + &crate::support::stderr(&r);
        assert_eq!(
            r.status.code(),
            Some(exits[code]),
            "{code}: {args:?}: {err}"
        );
        assert!(err.contains(starts), "{code}: {args:?}: {err}");
    }
}

#[test]
fn a_line_of_news_speaks_of_an_option_in_the_library_words_or_by_the_front_name() {
    use blockprint::app::Event;
    use blockprint::app::sink::{Line, Part};
    let line = Line::new(
        "seed: 7 (regenerate this batch with the seed 7)",
        vec![
            Part::Text("seed: 7 (regenerate this batch with ".into()),
            Part::Option("seed"),
            Part::Text(" 7)".into()),
        ],
    );
    let flag = |id: &'static str| blockprint::cli::flag(id);
    assert_eq!(
        line.named(&flag),
        "seed: 7 (regenerate this batch with --seed 7)"
    );
    assert_eq!(line.options(), ["seed"]);
    let e = Event::Seed(line.clone());
    assert_eq!(e.text(), "seed: 7 (regenerate this batch with the seed 7)");
    assert_eq!(e.named(&flag), line.named(&flag));
    // After a lead, in both wordings; without its newline; a plain line names nothing.
    let warned = line.after("warning: ");
    assert!(warned.text().starts_with("warning: seed: 7 (regenerate"));
    assert!(
        warned
            .named(&flag)
            .starts_with("warning: seed: 7 (regenerate")
    );
    let ended = Line::new("a\n", vec![Part::Option("seed"), Part::Text(" b\n".into())]);
    let ended = ended.without_newline();
    assert_eq!((ended.text(), ended.named(&flag)), ("a", "--seed b".into()));
    let plain = Line::from("wrote it".to_owned());
    assert_eq!(
        (plain.text(), plain.named(&flag)),
        ("wrote it", "wrote it".into())
    );
    assert!(plain.options().is_empty());
    assert_eq!(Event::Note("x".into()).named(&flag), "x");
}

#[test]
fn a_campaign_note_and_a_state_report_name_options_the_command_line_way() {
    // The library words them in its own terms (options by id); the command line shows its flags, as
    // it did when the library spelt them.
    use crate::support::{blockprint, ok, stderr};
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("c");
    let d = dir.to_str().unwrap();
    ok(&blockprint(&[
        "campaign",
        "new",
        d,
        "--seed",
        "1",
        "--detectives",
        "Ann",
        "--packets",
        "none",
        "-q",
    ]));
    let r = blockprint(&["campaign", "week", d, "--rewrite-history", "-q"]);
    ok(&r);
    assert!(
        stderr(&r).contains(
            "--rewrite-history: the setup is the one the campaign was recorded with; there is nothing to rewrite\n"
        ),
        "{}",
        stderr(&r)
    );
    // A derived part edited under another content version: the report's help names --content.
    let state = dir.join("campaign.toml");
    let text = std::fs::read_to_string(&state).unwrap();
    let at = text.find("content_version = \"").unwrap() + "content_version = \"".len();
    let text = format!("{}000000000000{}", &text[..at], &text[at + 12..])
        .replace("months_closed = 0", "months_closed = 3");
    std::fs::write(&state, text).unwrap();
    let r = blockprint(&["campaign", "week", d, "-q"]);
    assert_eq!(r.status.code(), Some(1), "{}", stderr(&r));
    assert!(
        stderr(&r).contains(
            "which changes what rolls on its tables; use the content of then (--content), or edit the \
             [[command]] log and leave this part to blockprint\n"
        ),
        "{}",
        stderr(&r)
    );
}
