//! One surface for every kind: `make KIND` comes from the registry, the dedicated commands are its
//! aliases, a kind's options are one struct (flags, JSON identity and JSON Schema), and a Rust kind of
//! one's own is one file and one registration line.

use std::collections::BTreeMap;
use std::path::Path;

use clap::CommandFactory;
use serde_json::{Value, json};

use crate::support::{blockprint, ok, s, tree};
use blockprint::generators::Registry;
use blockprint::project::{Batch, Output, Project};

#[path = "fixtures/kind/motto.rs"]
mod motto;

/// Every file of a run, the manifest's `command` (the command line as typed) left out.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    tree(dir)
        .into_iter()
        .map(|(name, bytes)| {
            if name.ends_with("manifest.json") {
                let mut m: Value = serde_json::from_slice(&bytes).unwrap();
                m.as_object_mut().unwrap().remove("command");
                (name, serde_json::to_vec_pretty(&m).unwrap())
            } else {
                (name, bytes)
            }
        })
        .collect()
}

/// Each dedicated command writes exactly what `make` writes with the same options.
#[test]
fn every_alias_makes_what_make_makes() {
    let runs: &[(&[&str], &[&str])] = &[
        (
            &["case", "--seed", "7", "--count", "2"],
            &["make", "case", "--seed", "7", "--count", "2"],
        ),
        (
            &["srd", "--format", "md"],
            &["make", "srd", "--format", "md"],
        ),
        (
            &[
                "detective",
                "--seed",
                "42",
                "--count",
                "2",
                "--class",
                "rogue",
                "--format",
                "md,json",
            ],
            &[
                "make",
                "detective",
                "--seed",
                "42",
                "--count",
                "2",
                "--class",
                "rogue",
                "--format",
                "md,json",
            ],
        ),
        (
            &[
                "npc", "--seed", "42", "--count", "3", "--role", "witness", "--format", "md,json",
            ],
            &[
                "make", "npc", "--seed", "42", "--count", "3", "--role", "witness", "--format",
                "md,json",
            ],
        ),
        (&["sheet"], &["make", "sheet"]),
        (
            &["deck", "--card-size", "bridge", "--format", "md,json"],
            &[
                "make",
                "deck",
                "--card-size",
                "bridge",
                "--format",
                "md,json",
            ],
        ),
        (
            &["cards", "bbb", "--players", "2", "--format", "md,json"],
            &[
                "make",
                "cards",
                "bbb",
                "--players",
                "2",
                "--format",
                "md,json",
            ],
        ),
        (
            &["kit", "urban-world", "--format", "md,json"],
            &["make", "kit-urban-world", "--format", "md,json"],
        ),
        (&["export", "--to", "roll20"], &["make", "export-roll20"]),
        (
            &[
                "export",
                "--to",
                "foundry",
                "--foundry-version",
                "12",
                "bbb.homicide.district",
            ],
            &["make", "export-foundry-v12", "bbb.homicide.district"],
        ),
    ];
    for (alias, make) in runs {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a"), dir.path().join("b"));
        let mut args = alias.to_vec();
        args.extend(["-q", "--out", s(&a)]);
        ok(&blockprint(&args));
        let mut args = make.to_vec();
        args.extend(["-q", "--out", s(&b)]);
        ok(&blockprint(&args));
        let (fa, fb) = (files(&a), files(&b));
        assert!(!fa.is_empty(), "{alias:?} wrote nothing");
        assert_eq!(
            fa.keys().collect::<Vec<_>>(),
            fb.keys().collect::<Vec<_>>(),
            "{alias:?}"
        );
        for (name, bytes) in &fa {
            assert!(
                bytes == &fb[name],
                "{alias:?}: {name} differs from {make:?}"
            );
        }
    }
}

/// `kit all` is every registered kit, in registration order.
#[test]
fn kit_all_is_every_kit_of_the_registry() {
    let registry = Registry::new(&blockprint::render::Templates::builtin()).unwrap();
    let games = blockprint::cli::make::kit_games(&registry);
    assert_eq!(games, ["coc", "urban-world", "storypath", "bbb", "rbf"]);
    let dir = tempfile::tempdir().unwrap();
    ok(&blockprint(&[
        "kit",
        "all",
        "--format",
        "json",
        "-q",
        "--out",
        s(dir.path()),
    ]));
    let mut made: Vec<String> = std::fs::read_dir(dir.path().join("kits"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    made.sort();
    let mut want: Vec<String> = games.clone();
    want.sort();
    assert_eq!(made, want);
}

/// The help of `make KIND` for every kind: its own options under their heading, then the shared ones.
#[test]
fn every_kind_has_make_help_with_its_options_and_the_shared_ones() {
    let registry = Registry::new(&blockprint::render::Templates::builtin()).unwrap();
    let mut cmd = blockprint::cli::make::add_commands(blockprint::cli::Cli::command(), &registry);
    let make = cmd.find_subcommand_mut("make").unwrap();
    let names: Vec<String> = make
        .get_subcommands()
        .map(|c| c.get_name().to_owned())
        .collect();
    let kinds: Vec<String> = registry.kinds().map(|k| k.name().to_owned()).collect();
    assert_eq!(names, kinds);
    for def in registry.defs() {
        let name = def.info().name.to_string();
        let sub = make.find_subcommand_mut(&name).unwrap();
        let help = sub.render_long_help().to_string();
        for flag in [
            "--out", "--paper", "--jobs", "--quiet", "--force", "--format",
        ] {
            assert!(help.contains(flag), "make {name} --help lacks {flag}");
        }
        // A batch's options where the kind rolls (with some of its options), and only there.
        for flag in ["--seed", "--count", "--first-number"] {
            assert_eq!(
                help.contains(flag),
                def.rolls(),
                "make {name} --help and {flag} (the kind rolls: {})",
                def.rolls()
            );
        }
        // Every option of the schema is a flag or an argument of the command, and the other way round.
        let mut schema_keys = Vec::new();
        leaf_properties(&def.schema(), &def.schema(), &mut schema_keys);
        schema_keys.sort();
        let shared: Vec<String> = {
            use clap::Args;
            blockprint::cli::make::RollArgs::augment_args(
                blockprint::cli::make::MakeArgs::augment_args(clap::Command::new("x")),
            )
            .get_arguments()
            .map(|a| a.get_id().to_string())
            .collect()
        };
        let mut arg_ids: Vec<String> = sub
            .get_arguments()
            .map(|a| a.get_id().to_string())
            .filter(|id| {
                !shared.contains(id) && !["help", "check_pages", "color"].contains(&id.as_str())
            })
            .collect();
        arg_ids.sort();
        assert_eq!(
            schema_keys, arg_ids,
            "`{name}`: the schema's options against the flags"
        );
    }
}

/// The names of every leaf property of a schema (nested objects and `$ref`s followed).
fn leaf_properties(root: &Value, schema: &Value, out: &mut Vec<String>) {
    let schema = match schema.get("$ref").and_then(Value::as_str) {
        Some(r) => {
            let name = r.rsplit('/').next().unwrap();
            &root["$defs"][name]
        }
        None => schema,
    };
    if let Some(props) = schema.get("properties").and_then(Value::as_object) {
        for (k, v) in props {
            let target = match v.get("$ref").and_then(Value::as_str) {
                Some(r) => &root["$defs"][r.rsplit('/').next().unwrap()],
                None => v,
            };
            if target.get("properties").is_some() {
                leaf_properties(root, target, out);
            } else {
                out.push(k.clone());
            }
        }
    }
}

/// The deck kind's options, exactly: the JSON Schema names each option with its type and default.
#[test]
fn deck_options_schema() {
    let registry = Registry::new(&blockprint::render::Templates::builtin()).unwrap();
    let schema = registry.def("deck").unwrap().schema();
    assert_eq!(schema["title"], "DeckOptions");
    assert_eq!(schema["properties"]["ids"]["type"], "array");
    let layout = &schema["$defs"]["LayoutOptions"]["properties"];
    assert_eq!(layout["card_size"]["type"], "string");
    assert_eq!(layout["duplex"]["$ref"], "#/$defs/Duplex");
    // Each choice with its help line, as `--help` shows them.
    let choices: Vec<(String, String)> = schema["$defs"]["Duplex"]["oneOf"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["const"].as_str().unwrap().to_owned(),
                c["description"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        choices,
        [
            (
                "long".to_owned(),
                "Flip on the long edge: the backs' columns are mirrored.".to_owned()
            ),
            (
                "short".to_owned(),
                "Flip on the short edge: the backs' rows are mirrored.".to_owned()
            ),
            (
                "none".to_owned(),
                "One-sided printing: backs stand where their fronts stand.".to_owned()
            ),
        ]
    );
    // The defaults come from the flags' own defaults.
    assert_eq!(
        registry.def("deck").unwrap().defaults().unwrap(),
        json!({
            "ids": [],
            "layout": {
                "card_size": "poker", "gutter": "0", "bleed": null, "printer_margin": "5mm",
                "grid": null, "duplex": "long", "alignment_page": false, "back_offset": null,
                "single": false, "png": null
            }
        })
    );
}

/// A Rust kind of one's own: one file (tests/fixtures/kind/motto.rs) and one registration line. Its
/// option is a flag of `make motto`, a property of its schema, and changes what it writes; JSON
/// options are read over the defaults, and an unknown one is refused by name.
#[test]
fn a_rust_kind_of_ones_own_with_one_option() {
    let templates = blockprint::render::Templates::builtin();
    let mut registry = Registry::new(&templates).unwrap();
    registry.register_def(Box::new(&motto::DEF));

    let mut cmd = blockprint::cli::make::add_commands(blockprint::cli::Cli::command(), &registry);
    let help = cmd
        .find_subcommand_mut("make")
        .unwrap()
        .find_subcommand_mut("motto")
        .unwrap()
        .render_long_help()
        .to_string();
    assert!(help.starts_with("A squad motto\n"), "{help}");
    assert!(
        help.contains("Options of motto:\n      --shout\n          Write the motto in capitals"),
        "{help}"
    );
    let schema = registry.def("motto").unwrap().schema();
    assert_eq!(
        schema["properties"]["shout"],
        json!({"type": "boolean", "description": "Write the motto in capitals."})
    );

    let project = Project::with_registry(
        blockprint::content::ContentRoot::Embedded,
        templates,
        registry,
    )
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut output = Output::new(dir.path());
    output.quiet = true;
    project
        .make(
            &[("motto", json!({ "shout": true }))],
            &Batch::default(),
            &output,
            &blockprint::app::Silent,
        )
        .unwrap();
    let motto: Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("motto/motto.json")).unwrap())
            .unwrap();
    let district = project.lib().table("bbb.homicide.district").unwrap().rows[0]
        .result
        .value
        .clone();
    assert_eq!(
        motto["motto"],
        format!("WE NEVER SLEEP IN {}", district.to_uppercase())
    );
    let manifest: Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("motto/manifest.json")).unwrap())
            .unwrap();
    assert_eq!(manifest["batch"]["options"], json!({ "shout": true }));

    let e = project
        .make(
            &[("motto", json!({ "whisper": true }))],
            &Batch::default(),
            &output,
            &blockprint::app::Silent,
        )
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "error: `motto` has no option `whisper`; the options there are: shout"
    );
    assert_eq!(e.exit_code(), 2);
}

/// Options given as JSON (as a form sends them) make what the same flags make.
#[test]
fn json_options_make_what_flags_make() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    ok(&blockprint(&[
        "make",
        "deck",
        "--card-size",
        "bridge",
        "--format",
        "md,json",
        "-q",
        "--out",
        s(&a),
    ]));
    let project = Project::open(None, None).unwrap();
    let mut output = Output::new(&b);
    output.quiet = true;
    output.formats = vec![
        blockprint::render::Format::Md,
        blockprint::render::Format::Json,
    ];
    project
        .make(
            &[("deck", json!({ "layout": { "card_size": "bridge" } }))],
            &Batch::default(),
            &output,
            &blockprint::app::Silent,
        )
        .unwrap();
    assert_eq!(files(&a), files(&b));
}

/// `--format` offers what the kind makes: another format is refused by clap with the kind's own list.
#[test]
fn format_lists_what_the_kind_makes() {
    let o = blockprint(&["case", "--format", "csv"]);
    assert_eq!(o.status.code(), Some(2));
    let err = crate::support::stderr(&o);
    assert!(
        err.contains("invalid value 'csv' for '--format <FORMAT>'"),
        "{err}"
    );
    assert!(err.contains("[possible values: pdf, md, json]"), "{err}");
    let o = blockprint(&["make", "export-roll20", "--format", "json"]);
    assert!(crate::support::stderr(&o).contains("[possible values: txt]"));
}

/// The old spelling, options before the kind (`make --out DIR tables`), still works for one release and
/// says how to write it now.
#[test]
fn options_before_the_kind_still_work_with_a_deprecation_note() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    let old = blockprint(&["make", "--out", s(&a), "--paper", "letter", "-q", "tables"]);
    ok(&old);
    assert_eq!(
        crate::support::stderr(&old),
        "warning: options before the kind are deprecated; write `blockprint make tables [OPTIONS]`\n"
    );
    ok(&blockprint(&[
        "make",
        "tables",
        "--out",
        s(&b),
        "--paper",
        "letter",
        "-q",
    ]));
    assert_eq!(files(&a), files(&b));
    // The new order and `make --list` say nothing.
    assert_eq!(crate::support::stderr(&blockprint(&["make", "--list"])), "");
}

/// Lengths and sizes that start with a minus are read as values and refused by name, and every option
/// is checked before anything is written (issue 27, items 10 and 11).
#[test]
fn card_options_are_checked_by_name_before_anything_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    for (flag, value, says) in [
        (
            "--bleed",
            "-1mm",
            "--bleed `-1mm`: a length cannot be negative; give 0 or more, such as 3mm",
        ),
        (
            "--gutter",
            "-3mm",
            "--gutter `-3mm`: a length cannot be negative; give 0 or more, such as 3mm",
        ),
        (
            "--printer-margin",
            "-5mm",
            "--printer-margin `-5mm`: a length cannot be negative",
        ),
        ("--card-size", "-63x88", "--card-size `-63x88`"),
    ] {
        let o = blockprint(&["deck", flag, value, "--out", s(&out)]);
        assert_eq!(o.status.code(), Some(2), "{flag} {value}");
        let err = crate::support::stderr(&o);
        assert!(err.contains(says), "{flag} {value}: {err}");
        assert!(!out.exists(), "{flag} {value} wrote something");
    }
    let file = dir.path().join("a-file");
    std::fs::write(&file, "not a folder").unwrap();
    let o = blockprint(&[
        "deck",
        "bbb.chase.foot",
        "--png",
        s(&file),
        "--out",
        s(&out),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        crate::support::stderr(&o)
            .contains("is a file, not a folder; give a folder (it is made if missing)"),
        "{}",
        crate::support::stderr(&o)
    );
    assert!(
        !out.exists(),
        "the deck's files were written before the PNG folder was refused"
    );
}

/// `campaign new` checks what the setup names against the content, and a refused one prints no seed
/// (issue 27, items 7 and 12).
#[test]
fn campaign_new_checks_assignments_and_announces_a_seed_only_when_it_begins() {
    let dir = tempfile::tempdir().unwrap();
    let sq = dir.path().join("sq");
    let o = blockprint(&[
        "campaign",
        "new",
        s(&sq),
        "--detectives",
        "Ana Ruiz,Walt Kowalski=harbour patrom",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = crate::support::stderr(&o);
    assert!(
        err.starts_with(
            "error: `Walt Kowalski`'s least-wanted assignment `harbour patrom` is not one of bbb.character.assignment\n  = help: did you mean `harbour patrol`?"
        ),
        "{err}"
    );
    assert!(!err.contains("seed:"), "{err}");
    assert!(!sq.exists());
    let o = blockprint(&[
        "campaign",
        "new",
        s(&sq),
        "--detectives",
        "Ana Ruiz",
        "--paper",
        "a5",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(!crate::support::stderr(&o).contains("seed:"));
    // Letter case and spaces aside, a row of the table is accepted; a fresh seed is announced once begun.
    let o = blockprint(&[
        "campaign",
        "new",
        s(&sq),
        "--detectives",
        "Walt Kowalski=Harbour  Patrol",
        "-q",
    ]);
    ok(&o);
    let err = crate::support::stderr(&o);
    assert!(
        err.starts_with("seed: ") && err.contains("(regenerate this campaign with --seed "),
        "{err}"
    );
}

/// One kind's failure never stops `build`: every other kind is made, and the failure is reported with
/// what was made (issue 27, item 4).
#[test]
fn build_finishes_the_other_kinds_when_one_fails() {
    let dir = tempfile::tempdir().unwrap();
    let templates = dir.path().join("templates");
    std::fs::create_dir_all(templates.join("tables")).unwrap();
    // Templates of one's own that cannot be read: the tables and sheet kinds fail, nothing else does.
    std::fs::write(templates.join("tables/tables.md.j2"), "{{ nope() }}\n").unwrap();
    std::fs::create_dir_all(templates.join("sheet")).unwrap();
    std::fs::write(templates.join("sheet/caseload.typ"), "#nope()\n").unwrap();
    let out = dir.path().join("out");
    let o = blockprint(&[
        "build",
        "--seed",
        "7",
        "--count",
        "1",
        "--templates",
        s(&templates),
        "-q",
        "--out",
        s(&out),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = crate::support::stderr(&o);
    // The summary names each failed kind, in registration order, with the first line of its error.
    let summary = err
        .split_once("2 failed (the error below is the first):\n")
        .unwrap_or_else(|| panic!("no summary: {err}"))
        .1;
    let lines: Vec<&str> = summary.lines().take(2).collect();
    assert!(
        lines[0].starts_with("  sheet: ") && lines[0].contains("nope"),
        "{err}"
    );
    assert!(
        lines[1].starts_with("  tables: ") && lines[1].contains("nope"),
        "{err}"
    );
    assert!(err.contains("tables/tables.md.j2"), "{err}");
    for made in ["cases", "srd", "kits/bbb", "kits/rbf", "export/csv"] {
        assert!(
            out.join(made).join("manifest.json").exists(),
            "{made} was not made"
        );
    }
    assert!(!out.join("tables/manifest.json").exists());
    assert!(!out.join("sheet/manifest.json").exists());
}

/// An option a kind does not take is refused, whichever other command takes it: every kind of the
/// registry (so a new kind is covered on its first day), through `make KIND`, its alias, `kit` and
/// `export`, against every option of every other command that makes files. The error names the kind,
/// who takes the option and every option the kind does take; the command line exits 2 before anything
/// is read or written.
#[test]
fn an_option_a_kind_does_not_take_is_refused_naming_its_options() {
    let registry = Registry::new(&blockprint::render::Templates::builtin()).unwrap();
    let mut cmd = blockprint::cli::help::command();
    cmd.build();
    let make = cmd.find_subcommand("make").unwrap().clone();
    let long_flags = |c: &clap::Command| -> Vec<String> {
        c.get_arguments()
            .filter(|a| {
                !a.is_hide_set() && !["help", "color", "check_pages"].contains(&a.get_id().as_str())
            })
            .filter_map(|a| a.get_long().map(|l| format!("--{l}")))
            .collect()
    };
    // Every option of a command that makes files.
    let mut all: Vec<String> = make
        .get_subcommands()
        .chain(cmd.find_subcommand("build"))
        .flat_map(long_flags)
        .collect();
    all.sort();
    all.dedup();
    let mut paths: Vec<Vec<String>> = registry
        .kinds()
        .map(|k| vec!["make".to_owned(), k.name().to_owned()])
        .collect();
    for alias in blockprint::cli::make::ALIASES {
        paths.push(vec![(*alias).to_owned()]);
    }
    paths.push(vec!["kit".into(), "urban-world".into()]);
    paths.push(vec!["export".into(), "--to".into(), "csv".into()]);
    let mut refused = 0;
    for path in &paths {
        let mut found = &cmd;
        for w in path
            .iter()
            .filter(|w| !w.starts_with('-') && *w != "csv" && *w != "urban-world")
        {
            found = found.find_subcommand(w).unwrap();
        }
        let own = long_flags(found);
        let name = found.get_name();
        for flag in all.iter().filter(|f| !own.contains(f)) {
            let mut args: Vec<std::ffi::OsString> = vec!["blockprint".into()];
            args.extend(path.iter().map(Into::into));
            args.push(flag.into());
            args.push("1".into());
            let e = cmd
                .clone()
                .try_get_matches_from_mut(&args)
                .expect_err(&format!("{path:?} {flag} is refused"));
            let text = blockprint::cli::make::foreign_option(&cmd, &args, &e)
                .unwrap_or_else(|| panic!("{path:?} {flag}: no refusal naming the kind: {e}"));
            let head = if name == "kit" || name == "export" {
                format!("error: `{name}` takes no {flag} (")
            } else {
                format!("error: the {name} kind takes no {flag} (")
            };
            assert!(text.starts_with(&head), "{path:?} {flag}: {text}");
            let listed = text
                .split("are ")
                .nth(1)
                .and_then(|t| t.lines().next())
                .unwrap_or_default()
                .to_owned();
            assert_eq!(listed, own.join(", "), "{path:?} {flag}: {text}");
            refused += 1;
        }
    }
    assert!(refused > 100, "only {refused} refusals were tried");
    // The issue's own example, through the binary: exit 2, nothing written.
    let t = tempfile::tempdir().unwrap();
    let out = t.path().join("out");
    let o = blockprint(&[
        "sheet",
        "--year",
        "1980",
        "--year-cases",
        "3",
        "--count",
        "7",
        "--out",
        s(&out),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        crate::support::stderr(&o),
        "error: the sheet kind takes no --year (case and build take it)\n  \
         = note: the options of `blockprint sheet` are --content, --templates, --out, --paper, --jobs, \
         --quiet, --force, --font-path, --format\n  = help: `blockprint sheet --help` says what each does\n"
    );
    assert!(!out.exists());
    // A batch's options where the options given make nothing roll.
    for (args, said) in [
        (
            &["detective", "--pregenerated", "--seed", "3"][..],
            "error: `detective` with these options rolls nothing, so --seed does not apply; leave it out\n",
        ),
        (
            &["kit", "urban-world", "--count", "2", "--first-number", "4"][..],
            "error: `kit-urban-world` with these options rolls nothing, so --first-number and --count do not apply; leave them out\n",
        ),
    ] {
        let mut a = args.to_vec();
        a.extend(["--out", s(&out)]);
        let o = blockprint(&a);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert_eq!(crate::support::stderr(&o), said);
        assert!(!out.exists());
    }
}

/// `--paper` given to a kind that lays nothing out on paper is refused, naming why: every kind of the
/// registry that makes no PDF. Nothing is written. A kind that makes PDFs keeps it with `--format json`
/// (its document data names the paper).
#[test]
fn a_paper_where_nothing_is_laid_out_is_refused() {
    let registry = Registry::new(&blockprint::render::Templates::builtin()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let mut refused = 0;
    for k in registry.kinds() {
        let info = k.info();
        if info.formats.contains(&blockprint::render::Format::Pdf) {
            continue;
        }
        let o = blockprint(&["make", &info.name, "--paper", "letter", "--out", s(&out)]);
        assert_eq!(o.status.code(), Some(2), "{}", info.name);
        let said = crate::support::stderr(&o);
        let why = format!(
            "error: `{}` makes no PDF, so --paper has nothing to lay out\n",
            info.name
        );
        assert!(said.starts_with(&why), "{}: {said}", info.name);
        assert!(!out.exists(), "{}", info.name);
        refused += 1;
    }
    assert_eq!(refused, 4, "the four exports");
    // `export` names its own command's kinds.
    let o = blockprint(&[
        "export",
        "--to",
        "csv",
        "--paper",
        "letter",
        "--out",
        s(&out),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(!out.exists());
}

/// `make --list --json`: every kind of the registry, in its order, with what `make --list` says of it.
#[test]
fn make_list_json_is_the_registry() {
    let o = blockprint(&["make", "--list", "--json"]);
    ok(&o);
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let registry = Registry::new(&blockprint::render::Templates::builtin()).unwrap();
    let kinds = v.as_array().unwrap();
    assert_eq!(kinds.len(), registry.defs().count());
    for (k, def) in kinds.iter().zip(registry.defs()) {
        let info = def.info();
        assert_eq!(k["name"], info.name.as_ref());
        assert_eq!(k["title"], info.title.as_ref());
        assert_eq!(k["about"], info.about.as_ref());
        // What a GM calls it, in words: a capital first, not the command's name, no flag or notation.
        let title = info.title.as_ref();
        assert!(
            title != info.name.as_ref()
                && title.chars().next().is_some_and(char::is_uppercase)
                && !title.contains("--")
                && !title.contains('`'),
            "`{}` has no title in words: {title:?}",
            info.name
        );
        assert_eq!(k["folder"], info.folder.as_ref());
        assert_eq!(k["formats"], serde_json::to_value(&info.formats).unwrap());
        assert_eq!(k["rolls"], def.rolls());
    }
    let case = &kinds[0];
    assert_eq!(
        case,
        &json!({
            "name": "case",
            "title": "Case packets",
            "about": "homicide case packets: GM file, player handout, Markdown and JSON per case",
            "formats": ["pdf", "md", "json"],
            "folder": "cases",
            "papers": ["a4", "letter"],
            "rolls": true,
        })
    );
    // --json belongs to --list.
    assert_eq!(blockprint(&["make", "--json"]).status.code(), Some(2));
}
