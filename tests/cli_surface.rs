//! The command line's shared surface: completion scripts and manual pages generated from the parser,
//! the grouped top-level help, kinds in help text listed from the registry, the README's command list,
//! `--json` as the one spelling of machine-readable output, and colour (`--color`, NO_COLOR,
//! CLICOLOR_FORCE, a terminal or a pipe).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

use crate::support::{blockprint, bp, ok, stderr, stdout};

/// Every visible top-level command clap knows, `help` aside.
fn commands() -> BTreeSet<String> {
    blockprint::cli::help::command()
        .get_subcommands()
        .filter(|c| !c.is_hide_set() && c.get_name() != "help")
        .map(|c| c.get_name().to_owned())
        .collect()
}

/// The kinds of the built-in registry, in its order: (name, about).
fn registry_kinds() -> Vec<(String, String)> {
    let registry =
        blockprint::generators::Registry::new(&blockprint::render::Templates::builtin()).unwrap();
    registry
        .kinds()
        .map(|k| (k.name().to_owned(), k.about().to_owned()))
        .collect()
}

/// `bash -c SCRIPT`, its stdout.
fn bash(script: &str) -> String {
    let o = Command::new("bash")
        .args(["--norc", "--noprofile", "-c", script])
        .output()
        .expect("bash runs");
    assert_eq!(o.status.code(), Some(0), "bash failed: {}", stderr(&o));
    stdout(&o)
}

/// What the bash completion offers for the words typed so far (the last one is being completed).
fn bash_complete(script: &Path, words: &[&str]) -> BTreeSet<String> {
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let line = words.join(" ");
    let out = bash(&format!(
        "source '{}'\nCOMP_WORDS=({})\nCOMP_CWORD={}\nCOMP_LINE='{line}'\nCOMP_POINT={}\n\
         _blockprint blockprint '{}' '{}'\nprintf '%s\\n' \"${{COMPREPLY[@]}}\"",
        script.display(),
        quoted.join(" "),
        words.len() - 1,
        line.len(),
        words[words.len() - 1],
        words[words.len() - 2],
    ));
    out.lines()
        .filter(|l| !l.is_empty())
        .map(str::to_owned)
        .collect()
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

#[test]
fn bash_completion_parses_and_completes_commands_and_flags() {
    let o = blockprint(&["completions", "bash"]);
    ok(&o);
    assert_eq!(stderr(&o), "");
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("blockprint.bash");
    std::fs::write(&script, &o.stdout).unwrap();
    let syntax = Command::new("bash")
        .arg("-n")
        .arg(&script)
        .output()
        .unwrap();
    assert_eq!(syntax.status.code(), Some(0), "{}", stderr(&syntax));
    assert!(
        stdout(&o).contains("complete -F _blockprint"),
        "no registration"
    );
    // `ma` is the start of two commands, and only of those.
    assert_eq!(
        bash_complete(&script, &["blockprint", "ma"]),
        set(&["make", "manpage"])
    );
    assert_eq!(
        bash_complete(&script, &["blockprint", "mak"]),
        set(&["make"])
    );
    assert_eq!(
        bash_complete(&script, &["blockprint", "verify"]),
        set(&["verify-odds"])
    );
    // A command's own flags. (clap_complete offers hidden flags too, so the deprecated `check
    // --format` is still completed: clap-rs/clap#2541, #3951.)
    assert_eq!(
        bash_complete(&script, &["blockprint", "check", "--j"]),
        set(&["--json"])
    );
    // `make KIND` completes the registry's kinds.
    let kits: BTreeSet<String> = registry_kinds()
        .into_iter()
        .map(|(n, _)| n)
        .filter(|n| n.starts_with("kit-"))
        .collect();
    assert_eq!(kits.len(), 5, "{kits:?}");
    assert_eq!(
        bash_complete(&script, &["blockprint", "make", "kit-"]),
        kits
    );
    assert_eq!(
        bash_complete(&script, &["blockprint", "completions", "p"]),
        set(&["powershell"])
    );
}

#[test]
fn every_shell_gets_a_script_naming_every_command() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let o = blockprint(&["completions", shell]);
        ok(&o);
        let script = stdout(&o);
        for c in commands() {
            assert!(script.contains(&c), "{shell}: `{c}` missing");
        }
    }
    let o = blockprint(&["completions", "tcsh"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("[possible values: bash, elvish, fish, powershell, zsh]"),
        "{}",
        stderr(&o)
    );
}

/// `groff -man -Tutf8 -ww` of a page: the text, and no warning.
fn groff(page: &[u8]) -> String {
    use std::io::Write;
    let mut child = Command::new("groff")
        .args(["-man", "-Tutf8", "-ww", "-rLL=100n"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("groff is installed (apt-get install groff)");
    child.stdin.take().unwrap().write_all(page).unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stderr(&o), "", "groff warns");
    // Strip the overstrike groff's tty output uses for bold and underline.
    let text = stdout(&o);
    let mut plain = String::new();
    for c in text.chars() {
        if c == '\u{8}' {
            plain.pop();
        } else {
            plain.push(c);
        }
    }
    plain
}

#[test]
fn manpage_is_roff_that_groff_renders_and_names_every_command() {
    let o = blockprint(&["manpage"]);
    ok(&o);
    assert_eq!(stderr(&o), "");
    assert!(o.stdout.is_ascii());
    let page = stdout(&o);
    // Structure: a title line, then the sections a manual page has.
    let th = page
        .lines()
        .find(|l| l.starts_with(".TH "))
        .expect("a .TH line");
    assert_eq!(
        th,
        format!(
            ".TH blockprint 1  \"blockprint {}\" ",
            env!("CARGO_PKG_VERSION")
        )
    );
    for section in [
        "NAME",
        "SYNOPSIS",
        "DESCRIPTION",
        "OPTIONS",
        "SUBCOMMANDS",
        "VERSION",
    ] {
        assert!(
            page.lines().any(|l| l == format!(".SH {section}")),
            "no {section} section"
        );
    }
    let text = groff(&o.stdout);
    for c in commands() {
        assert!(
            text.contains(&format!("blockprint-{c}(1)")),
            "`blockprint-{c}(1)` missing from:\n{text}"
        );
    }
    // `man -l` reads it the same way.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("blockprint.1");
    std::fs::write(&file, &o.stdout).unwrap();
    let man = Command::new("man")
        .arg("-l")
        .arg(&file)
        .env("MANPAGER", "cat")
        .env("MANWIDTH", "100")
        .output()
        .expect("man is installed (apt-get install man-db)");
    assert_eq!(man.status.code(), Some(0), "{}", stderr(&man));
    assert!(stdout(&man).contains("blockprint-verify-odds(1)"));
}

/// Every page `manpage --out` should write: the program's, and one per visible command at any depth.
fn expected_pages(cmd: &clap::Command, prefix: &str, into: &mut BTreeSet<String>) {
    into.insert(format!("{prefix}.1"));
    for sub in cmd.get_subcommands() {
        if !sub.is_hide_set() && sub.get_name() != "help" {
            expected_pages(sub, &format!("{prefix}-{}", sub.get_name()), into);
        }
    }
}

#[test]
fn manpage_out_writes_one_page_per_command() {
    let dir = tempfile::tempdir().unwrap();
    let man1 = dir.path().join("man1");
    let o = blockprint(&["manpage", "--out", man1.to_str().unwrap()]);
    ok(&o);
    let mut want = BTreeSet::new();
    expected_pages(&blockprint::cli::help::command(), "blockprint", &mut want);
    assert!(want.contains("blockprint-campaign-week.1"));
    let got: BTreeSet<String> = std::fs::read_dir(&man1)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(got, want);
    assert_eq!(
        stderr(&o),
        format!(
            "wrote {} manual pages into {} (blockprint.1 and one per command; read one with `man -l {}`)\n",
            want.len(),
            man1.display(),
            man1.join("blockprint.1").display()
        )
    );
    // Pages are ASCII (other characters as roff's `\[uXXXX]`), and groff renders them back.
    for name in &want {
        let page = std::fs::read(man1.join(name)).unwrap();
        assert!(page.is_ascii(), "{name} holds non-ASCII bytes");
    }
    let build = std::fs::read_to_string(man1.join("blockprint-build.1")).unwrap();
    assert!(
        build.contains("Print no \"wrote \\[u2026]\" lines"),
        "{build}"
    );
    assert!(groff(build.as_bytes()).contains("Print no \"wrote …\" lines"));
    let campaign = groff(&std::fs::read(man1.join("blockprint-campaign.1")).unwrap());
    assert!(
        campaign.contains("blockprint-campaign-week(1)"),
        "{campaign}"
    );
    let week = groff(&std::fs::read(man1.join("blockprint-campaign-week.1")).unwrap());
    // groff justifies the synopsis line: compare with runs of spaces as one.
    let words = week.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(words.contains("blockprint campaign week"), "{week}");
    // Quiet: the same pages, nothing said.
    let o = blockprint(&["manpage", "--out", man1.to_str().unwrap(), "--quiet"]);
    ok(&o);
    assert_eq!(stderr(&o), "");
}

/// The blocks of `blockprint --help` before its options: heading → command names.
fn help_groups(help: &str) -> Vec<(String, Vec<String>)> {
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for line in help.lines() {
        if line == "Options:" {
            break;
        }
        if let Some(h) = line.strip_suffix(':').filter(|h| !h.starts_with(' ')) {
            groups.push((h.to_owned(), Vec::new()));
        } else if let (Some(name), Some((_, names))) = (line.strip_prefix("  "), groups.last_mut())
        {
            names.push(name.split_whitespace().next().unwrap().to_owned());
        }
    }
    groups
}

#[test]
fn top_level_help_groups_every_command_by_purpose() {
    let o = blockprint(&["--help"]);
    ok(&o);
    let help = stdout(&o);
    let groups = help_groups(&help);
    let want: Vec<(String, Vec<String>)> = [
        (
            "Make files",
            &[
                "build",
                "make",
                "case",
                "srd",
                "detective",
                "npc",
                "sheet",
                "deck",
                "cards",
                "kit",
                "export",
            ][..],
        ),
        (
            "Look things up",
            &["tables", "odds", "chase", "roll", "draw", "verify-odds"],
        ),
        ("Studio", &["serve"]),
        ("Content", &["check", "init", "import"]),
        ("Campaign", &["campaign"]),
        ("Shell", &["completions", "manpage"]),
    ]
    .iter()
    .map(|(h, n)| (h.to_string(), n.iter().map(|s| s.to_string()).collect()))
    .collect();
    assert_eq!(groups, want, "{help}");
    // Every command clap knows is in exactly one group.
    let listed: Vec<String> = groups.iter().flat_map(|(_, n)| n.clone()).collect();
    assert_eq!(listed.len(), commands().len());
    assert_eq!(listed.into_iter().collect::<BTreeSet<_>>(), commands());
    // Each line carries the command's own summary.
    assert!(
        help.lines().any(|l| l.starts_with("  odds ")
            && l.ends_with(
                "Exact distribution of a dice expression, e.g. `blockprint odds 4d6kh3`"
            )),
        "{help}"
    );
    assert!(help.contains("\nOptions:\n      --check-pages"), "{help}");
    assert!(help.ends_with(
        "`blockprint help COMMAND` or `blockprint COMMAND --help` shows a command's options.\n"
    ));
    // `help` without a command is the same text; -h too.
    assert_eq!(stdout(&blockprint(&["help"])), help);
    assert_eq!(stdout(&blockprint(&["-h"])), help);
}

#[test]
fn help_of_a_command_works_both_ways() {
    for c in ["build", "check", "odds", "campaign"] {
        let a = blockprint(&["help", c]);
        let b = blockprint(&[c, "--help"]);
        ok(&a);
        ok(&b);
        assert_eq!(stdout(&a), stdout(&b), "{c}");
        assert!(
            stdout(&a).contains(&format!("Usage: blockprint {c}")),
            "{c}"
        );
    }
    let o = blockprint(&["help", "campaign", "week"]);
    ok(&o);
    assert!(stdout(&o).contains("Usage: blockprint campaign week"));
}

/// The `Kinds:` block of a help text: (name, rest of line).
fn kinds_block(help: &str) -> Vec<(String, String)> {
    let rest = help
        .split("\nKinds:\n")
        .nth(1)
        .unwrap_or_else(|| panic!("no Kinds: section in\n{help}"));
    rest.lines()
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .map(|l| {
            let (name, text) = l.trim_start().split_once(' ').unwrap();
            (name.to_owned(), text.trim_start().to_owned())
        })
        .collect()
}

#[test]
fn build_and_make_help_list_the_registry() {
    let registry =
        blockprint::generators::Registry::new(&blockprint::render::Templates::builtin()).unwrap();
    let want: Vec<(String, String)> = registry
        .kinds()
        .map(|k| {
            let formats: Vec<String> = k
                .formats()
                .iter()
                .map(|f| {
                    serde_json::to_value(f)
                        .unwrap()
                        .as_str()
                        .unwrap()
                        .to_owned()
                })
                .collect();
            (
                k.name().to_owned(),
                format!("{} ({}; {}/)", k.about(), formats.join(", "), k.folder()),
            )
        })
        .collect();
    assert!(want.len() >= 17, "{want:?}");
    for cmd in ["build", "make"] {
        let help = stdout(&blockprint(&[cmd, "--help"]));
        assert_eq!(kinds_block(&help), want, "{cmd}");
    }
    let build = stdout(&blockprint(&["build", "--help"]));
    assert!(
        !build.contains("tables reference, a batch of case packets"),
        "{build}"
    );
    assert!(build.starts_with(
        "Make every document kind the content offers, each in all its formats, into the output folder\n"
    ));
    // A kind of one's own, from `--templates`, is listed too, after the built-in ones.
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/kinds");
    let help = stdout(&blockprint(&[
        "build",
        "--templates",
        fixtures.to_str().unwrap(),
        "--help",
    ]));
    let listed = kinds_block(&help);
    assert_eq!(listed.len(), want.len() + 1);
    assert_eq!(
        listed.last().unwrap(),
        &(
            "toy".to_owned(),
            "a one-table handout (test fixture) (pdf, md, json; toy/)".to_owned()
        )
    );
    // The names in the list are what `make KIND` takes.
    let names: Vec<&str> = want.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        registry_kinds()
            .iter()
            .map(|(n, _)| n.as_str())
            .collect::<Vec<_>>()
    );
}

/// The command names of the README's `## Commands` block, in order.
fn readme_commands() -> Vec<String> {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let section = readme
        .split("\n## Commands\n")
        .nth(1)
        .expect("a ## Commands section");
    let block = section
        .split("```")
        .nth(1)
        .expect("a code block in ## Commands");
    block
        .lines()
        .filter_map(|l| l.strip_prefix("blockprint "))
        .map(|rest| rest.split_whitespace().next().unwrap().to_owned())
        .collect()
}

#[test]
fn readme_lists_every_command_once() {
    let listed = readme_commands();
    let unique: BTreeSet<String> = listed.iter().cloned().collect();
    assert_eq!(
        unique.len(),
        listed.len(),
        "a command listed twice: {listed:?}"
    );
    assert_eq!(unique, commands());
}

#[test]
fn check_json_is_the_machine_readable_output() {
    let new = blockprint(&["check", "--json"]);
    ok(&new);
    assert_eq!(stderr(&new), "");
    let v: serde_json::Value = serde_json::from_slice(&new.stdout).unwrap();
    assert_eq!(v["errors"], serde_json::json!([]));
    assert_eq!(v["warnings"].as_array().unwrap().len(), 3);
    // The old spelling still works for one release, says so, and prints the same bytes.
    let old = blockprint(&["check", "--format", "json"]);
    ok(&old);
    assert_eq!(old.stdout, new.stdout);
    assert_eq!(
        stderr(&old),
        "warning: --format json is deprecated; use --json\n"
    );
    let text = blockprint(&["check", "--format", "text"]);
    ok(&text);
    assert_eq!(text.stdout, blockprint(&["check"]).stdout);
    assert_eq!(
        stderr(&text),
        "warning: --format text is deprecated; text is what check prints without --json\n"
    );
    // Both at once is a usage error.
    let both = blockprint(&["check", "--json", "--format", "json"]);
    assert_eq!(both.status.code(), Some(2));
    assert!(
        stderr(&both).contains("cannot be used with"),
        "{}",
        stderr(&both)
    );
    // Help shows --json and hides --format.
    let help = stdout(&blockprint(&["check", "--help"]));
    assert!(help.contains("      --json "), "{help}");
    assert!(!help.contains("--format"), "{help}");
}

/// Every command that prints JSON on stdout spells it `--json`, and none names output files with it.
#[test]
fn json_means_stdout_everywhere() {
    fn walk(cmd: &clap::Command, path: &str, found: &mut BTreeMap<String, Vec<String>>) {
        for a in cmd.get_arguments() {
            if let Some(long) = a.get_long()
                && !a.is_hide_set()
            {
                found
                    .entry(long.to_owned())
                    .or_default()
                    .push(path.to_owned());
            }
        }
        for sub in cmd.get_subcommands() {
            walk(sub, &format!("{path} {}", sub.get_name()), found);
        }
    }
    let mut found = BTreeMap::new();
    walk(&blockprint::cli::help::command(), "blockprint", &mut found);
    let json: BTreeSet<&str> = found["json"].iter().map(String::as_str).collect();
    assert_eq!(
        json,
        [
            "blockprint chase odds",
            "blockprint chase play",
            "blockprint chase table",
            "blockprint check",
            "blockprint draw",
            "blockprint make",
            "blockprint odds",
            "blockprint roll",
            "blockprint tables",
            "blockprint verify-odds",
        ]
        .into_iter()
        .collect::<BTreeSet<_>>()
    );
    // `--format` takes output file formats wherever it is shown: never text or json alone.
    let cmd = blockprint::cli::help::command();
    for path in &found["format"] {
        let mut c = &cmd;
        for name in path.split(' ').skip(1) {
            c = c.find_subcommand(name).unwrap();
        }
        let arg = c
            .get_arguments()
            .find(|a| a.get_long() == Some("format"))
            .unwrap();
        let values: Vec<String> = arg
            .get_possible_values()
            .iter()
            .map(|v| v.get_name().to_owned())
            .collect();
        // Each command offers the file formats its kind makes (an export, say, only json or csv).
        assert!(
            !values.is_empty()
                && values
                    .iter()
                    .all(|v| ["pdf", "md", "json", "csv", "txt"].contains(&v.as_str()))
                && !(values == ["json"] && path.ends_with("check")),
            "{path} --format: {values:?}"
        );
    }
}

/// The style codespan (and so blockprint) opens an error's head with: reset, bold, bright red.
const RED: &str = "\x1b[0m\x1b[1m\x1b[38;5;9m";
/// The same for a warning: bright yellow.
const YELLOW: &str = "\x1b[0m\x1b[1m\x1b[38;5;11m";

/// `text` without its ANSI escape sequences (`ESC [ … letter`).
fn strip_ansi(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' && chars.next() == Some('[') {
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// A run with stdout and stderr piped, in an environment that says nothing about colour but `envs`.
fn run_colour(args: &[&str], envs: &[(&str, &str)]) -> std::process::Output {
    let mut cmd = bp();
    for var in ["NO_COLOR", "CLICOLOR_FORCE", "CLICOLOR"] {
        cmd.env_remove(var);
    }
    cmd.envs(envs.iter().copied())
        .args(args)
        .output()
        .expect("run blockprint")
}

fn has_escape(o: &std::process::Output) -> bool {
    o.stdout.contains(&0x1b) || o.stderr.contains(&0x1b)
}

/// A content folder with one checker error (a lookup band out of order).
fn bad_content() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/check/bad_band/content")
        .to_str()
        .unwrap()
        .to_owned()
}

#[test]
fn color_always_colours_diagnostics_errors_and_warnings() {
    let content = bad_content();
    // The checker's diagnostics on stdout: codespan's styles, the same text once they are removed.
    let plain = run_colour(&["check", "--content", &content], &[]);
    let coloured = run_colour(&["--color", "always", "check", "--content", &content], &[]);
    assert_eq!(plain.status.code(), Some(1));
    assert_eq!(coloured.status.code(), Some(1));
    assert!(!has_escape(&plain));
    let text = stdout(&coloured);
    assert!(
        text.starts_with(&format!(
            "{RED}error[bad_band]\x1b[0m\x1b[1m: band `Within a day` ends at 24 hours"
        )),
        "{text:?}"
    );
    assert!(
        text.contains("\x1b[0m\x1b[36m=\x1b[0m help: list bands"),
        "{text:?}"
    );
    assert_eq!(strip_ansi(&text), stdout(&plain));
    // A command that stops on content errors: the diagnostics, then its own `error:` line.
    let out = tempfile::tempdir().unwrap();
    let args = [
        "srd",
        "--content",
        &content,
        "--out",
        out.path().to_str().unwrap(),
    ];
    let plain = run_colour(&args, &[]);
    let coloured = run_colour(&[&["--color", "always"][..], &args].concat(), &[]);
    assert_eq!(coloured.status.code(), plain.status.code());
    let err = stderr(&coloured);
    // The SRD also needs the book the fixture lacks: two errors, each headed in red.
    assert!(
        err.starts_with(&format!("{RED}error[missing_requirement]")),
        "{err:?}"
    );
    assert!(err.contains(&format!("\n{RED}error[bad_band]")), "{err:?}");
    assert!(
        err.ends_with(&format!(
            "\n{RED}error\x1b[0m\x1b[0m\x1b[1m: 2 content error(s) in {content}; fix them (see `blockprint check`) and run again\x1b[0m\n"
        )),
        "{err:?}"
    );
    assert_eq!(strip_ansi(&err), stderr(&plain));
    // A bad dice expression (after the command: --color is global), and a warning.
    let plain = run_colour(&["odds", "3d6x"], &[]);
    let coloured = run_colour(&["odds", "3d6x", "--color", "always"], &[]);
    assert!(
        stderr(&coloured).starts_with(&format!(
            "{RED}error[bad_dice]\x1b[0m\x1b[0m\x1b[1m: unknown modifier `x`\x1b[0m\n"
        )),
        "{:?}",
        stderr(&coloured)
    );
    assert_eq!(strip_ansi(&stderr(&coloured)), stderr(&plain));
    let warned = run_colour(&["--color=always", "check", "--format", "json"], &[]);
    assert_eq!(
        stderr(&warned),
        format!(
            "{YELLOW}warning\x1b[0m\x1b[0m\x1b[1m: --format json is deprecated; use --json\x1b[0m\n"
        )
    );
    // JSON on stdout is never coloured.
    assert!(!warned.stdout.contains(&0x1b));
    // clap's own help and errors follow the flag too.
    let help = run_colour(&["--color", "always", "--help"], &[]);
    assert!(help.stdout.contains(&0x1b));
    assert_eq!(
        strip_ansi(&stdout(&help)),
        stdout(&run_colour(&["--help"], &[]))
    );
    let bad = run_colour(&["--color", "always", "bogus"], &[]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        stderr(&bad).starts_with("\x1b[1m\x1b[31merror:"),
        "{:?}",
        stderr(&bad)
    );
}

#[test]
fn no_colour_on_a_pipe_with_never_or_no_color() {
    let content = bad_content();
    let check = ["check", "--content", content.as_str()];
    let odds = ["odds", "3d6x"];
    for args in [&check[..], &odds[..]] {
        // A pipe, no flag: plain.
        assert!(!has_escape(&run_colour(args, &[])), "{args:?}");
        // --color never wins over CLICOLOR_FORCE.
        let never = [&["--color", "never"][..], args].concat();
        assert!(
            !has_escape(&run_colour(&never, &[("CLICOLOR_FORCE", "1")])),
            "{args:?}"
        );
        // NO_COLOR wins over CLICOLOR_FORCE; CLICOLOR=0 turns auto off.
        assert!(
            !has_escape(&run_colour(
                args,
                &[("NO_COLOR", "1"), ("CLICOLOR_FORCE", "1")]
            )),
            "{args:?}"
        );
        assert!(
            !has_escape(&run_colour(args, &[("CLICOLOR", "0")])),
            "{args:?}"
        );
        // CLICOLOR_FORCE colours a pipe; --color always wins over NO_COLOR.
        assert!(
            has_escape(&run_colour(args, &[("CLICOLOR_FORCE", "1")])),
            "{args:?}"
        );
        let always = [&["--color", "always"][..], args].concat();
        assert!(
            has_escape(&run_colour(&always, &[("NO_COLOR", "1")])),
            "{args:?}"
        );
        // An empty NO_COLOR or a CLICOLOR_FORCE of 0 says nothing.
        assert!(
            !has_escape(&run_colour(args, &[("CLICOLOR_FORCE", "0")])),
            "{args:?}"
        );
        assert!(
            has_escape(&run_colour(
                args,
                &[("NO_COLOR", ""), ("CLICOLOR_FORCE", "1")]
            )),
            "{args:?}"
        );
    }
    let bad = run_colour(&["--color", "sometimes", "odds", "3d6"], &[]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        stderr(&bad).contains("[possible values: auto, always, never]"),
        "{}",
        stderr(&bad)
    );
}

/// On a terminal (a pseudo-terminal from util-linux's `script`), `auto` colours; NO_COLOR turns it off.
#[test]
fn auto_colours_a_terminal() {
    let run = |envs: &[(&str, &str)]| {
        let mut cmd = Command::new("script");
        cmd.args(["-qec", "\"$BP\" odds 3d6x", "/dev/null"])
            .env("BP", env!("CARGO_BIN_EXE_blockprint"))
            .env("TERM", "xterm")
            .env_remove("NO_COLOR")
            .env_remove("CLICOLOR_FORCE")
            .env_remove("CLICOLOR")
            // CI runners set CI, which (as anstream's rule has it) colours a terminal even when TERM is dumb.
            .env_remove("CI")
            .envs(envs.iter().copied());
        let o = cmd.output().expect("script (util-linux) is installed");
        stdout(&o)
    };
    let tty = run(&[]);
    assert!(
        tty.starts_with(&format!("{RED}error[bad_dice]\x1b[0m")),
        "{tty:?}"
    );
    let plain = run(&[("NO_COLOR", "1")]);
    assert!(
        plain.starts_with("error[bad_dice]: unknown modifier `x`\r\n"),
        "{plain:?}"
    );
    let dumb = run(&[("TERM", "dumb")]);
    assert!(!dumb.contains('\x1b'), "{dumb:?}");
}

/// Every option and argument of every command says what it is for in `--help` (Storypath's
/// `--quarry-laps` and `--pursuer-laps` once had none).
#[test]
fn every_option_of_every_command_has_help() {
    fn walk(cmd: &clap::Command, path: &str, bare: &mut Vec<String>) {
        for a in cmd.get_arguments() {
            let said = a
                .get_help()
                .is_some_and(|h| !h.to_string().trim().is_empty());
            if !a.is_hide_set() && !said {
                bare.push(format!("{path} {}", a.get_id()));
            }
        }
        for sub in cmd.get_subcommands() {
            walk(sub, &format!("{path} {}", sub.get_name()), bare);
        }
    }
    let mut bare = Vec::new();
    walk(&blockprint::cli::help::command(), "blockprint", &mut bare);
    assert_eq!(bare, Vec::<String>::new());
}

/// `--check-pages` is refused (usage, 2) by a command that typesets no page, where it would check
/// nothing, and the command does nothing; the same command without it runs.
#[test]
fn check_pages_is_refused_where_nothing_is_typeset() {
    let t = tempfile::tempdir().unwrap();
    let fresh = t.path().join("fresh");
    let refused = t.path().join("refused");
    let cases: [(&str, Vec<&str>); 8] = [
        ("odds", vec!["odds", "2d6"]),
        ("roll", vec!["roll", "2d6", "--seed", "1"]),
        ("draw", vec!["draw", "city_streets", "--seed", "1"]),
        ("check", vec!["check"]),
        ("tables", vec!["tables"]),
        ("chase", vec!["chase", "odds", "coc"]),
        ("completions", vec!["completions", "bash"]),
        ("init", vec!["init", "-q", fresh.to_str().unwrap()]),
    ];
    for (name, args) in &cases {
        let o = blockprint(args);
        assert_eq!(o.status.code(), Some(0), "{name}: {}", stderr(&o));
        let mut with = args.clone();
        if *name == "init" {
            with = vec!["init", "-q", refused.to_str().unwrap()];
        }
        with.push("--check-pages");
        let o = blockprint(&with);
        assert_eq!(o.status.code(), Some(2), "{name}");
        assert_eq!(
            stderr(&o),
            format!(
                "error: --check-pages checks the pages a command typesets, and `blockprint {name}` typesets none; give it to make, build, campaign or serve\n"
            )
        );
        assert!(stdout(&o).is_empty(), "{name}");
    }
    assert!(fresh.join("bbb").is_dir() && !refused.exists());
}

/// Every command's one-line description is its own: none empty, no two siblings alike, and each derived
/// command's the first paragraph of the doc comment written on it in the source (once `chase` showed the
/// campaign's text and `campaign` none, a doc comment having slipped between the wrong items). The manual
/// page, made from the same definition, says the same.
#[test]
fn every_command_describes_itself_with_its_own_doc() {
    fn walk(cmd: &clap::Command, path: &str, seen: &mut Vec<(String, String)>) {
        let mut abouts: BTreeMap<String, String> = BTreeMap::new();
        for sub in cmd.get_subcommands().filter(|c| c.get_name() != "help") {
            let name = format!("{path} {}", sub.get_name());
            let about = sub.get_about().map(|a| a.to_string()).unwrap_or_default();
            assert!(!about.trim().is_empty(), "`{name}` has no description");
            if let Some(other) = abouts.insert(about.clone(), name.clone()) {
                panic!("`{name}` and `{other}` share the description `{about}`");
            }
            seen.push((name.clone(), about));
            walk(sub, &name, seen);
        }
    }
    let mut seen = Vec::new();
    walk(&blockprint::cli::help::command(), "blockprint", &mut seen);
    let about: BTreeMap<String, String> = seen.into_iter().collect();
    // The derived commands against their doc comments in the source.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut checked = 0;
    for (file, enum_name, path) in [
        ("src/cli/mod.rs", "Command", "blockprint"),
        ("src/cli/chase.rs", "ChaseCommand", "blockprint chase"),
        (
            "src/cli/campaign.rs",
            "CampaignCommand",
            "blockprint campaign",
        ),
    ] {
        let text = std::fs::read_to_string(root.join(file)).unwrap();
        for (variant, doc) in variant_docs(&text, enum_name) {
            let name = format!("{path} {}", kebab(&variant));
            let said = about
                .get(&name)
                .unwrap_or_else(|| panic!("`{name}` ({file}) is no command"));
            let norm = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
            assert_eq!(
                norm(said).trim_end_matches('.'),
                norm(&doc).trim_end_matches('.'),
                "`{name}`: its description is not the doc comment on `{enum_name}::{variant}` in {file}"
            );
            checked += 1;
        }
    }
    assert!(
        checked >= 25,
        "only {checked} commands were compared with their doc"
    );
    // The manual page of `chase` and `campaign` carries each one's own text.
    let t = tempfile::tempdir().unwrap();
    ok(&blockprint(&[
        "manpage",
        "--out",
        t.path().to_str().unwrap(),
        "-q",
    ]));
    for (page, words) in [
        (
            "blockprint-chase.1",
            "who gets away, how often and how fast",
        ),
        ("blockprint-campaign.1", "monthly closure rates"),
    ] {
        let roff = std::fs::read_to_string(t.path().join(page)).unwrap();
        assert!(roff.contains(words), "{page} lacks `{words}`");
    }
}

/// The first paragraph of the doc comment on each variant of `enum NAME` in Rust source `text`: the `///`
/// lines directly above it, attributes between them and the variant allowed.
fn variant_docs(text: &str, name: &str) -> Vec<(String, String)> {
    let start = text
        .find(&format!("pub enum {name} {{"))
        .unwrap_or_else(|| panic!("no enum {name}"));
    let mut out = Vec::new();
    let mut doc: Vec<String> = Vec::new();
    let mut in_attr = 0i32;
    for line in text[start..].lines().skip(1) {
        if line == "}" {
            break;
        }
        let t = line.trim();
        // Only the enum's own items (four spaces in), not the fields of a variant.
        let top = line.starts_with("    ") && !line.starts_with("     ");
        if in_attr > 0 || (top && t.starts_with("#[")) {
            in_attr += t.matches('[').count() as i32 - t.matches(']').count() as i32;
            in_attr = in_attr.max(0);
            continue;
        }
        if top && t.starts_with("///") {
            doc.push(t.trim_start_matches("///").trim().to_owned());
            continue;
        }
        if top && t.chars().next().is_some_and(|c| c.is_ascii_uppercase()) {
            let variant: String = t.chars().take_while(|c| c.is_alphanumeric()).collect();
            let first: Vec<String> = doc.iter().take_while(|l| !l.is_empty()).cloned().collect();
            out.push((variant, first.join(" ")));
        }
        if top {
            doc.clear();
        }
    }
    out
}

/// `VerifyOdds` → `verify-odds`.
fn kebab(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('-');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

/// Every chase system's `--help`, under `chase odds`, `play` and `table`, lists each of its policies with
/// its text (the first as the default), and says what its `--content` reads: a text of its own, not the
/// shared option's and not another system's.
#[test]
fn every_chase_system_has_its_own_help() {
    let lib = blockprint_content::load(&blockprint_content::ContentRoot::Embedded)
        .unwrap()
        .0;
    let mut cmd = blockprint::cli::help::command();
    cmd.build();
    let chase = cmd.find_subcommand("chase").unwrap();
    for verb in ["odds", "play", "table"] {
        let v = chase.find_subcommand(verb).unwrap();
        let shared = v
            .get_arguments()
            .find(|a| a.get_id() == "content")
            .and_then(|a| a.get_help())
            .map(|h| h.to_string())
            .unwrap();
        let mut texts = BTreeSet::new();
        let systems: Vec<&clap::Command> = v
            .get_subcommands()
            .filter(|c| c.get_name() != "help")
            .collect();
        assert_eq!(systems.len(), 5, "chase {verb}'s systems");
        for sys in systems {
            let name = sys.get_name();
            let help = sys.clone().render_long_help().to_string();
            // The policies, from the system itself.
            #[derive(clap::Parser)]
            struct One {
                #[command(subcommand)]
                system: blockprint_chase::SystemArgs,
            }
            let one = <One as clap::Parser>::try_parse_from(["one", name]).unwrap();
            let info = one.system.build(&lib).unwrap().info();
            assert!(
                help.contains("Policies (--policy):"),
                "chase {verb} {name} --help lists no policies"
            );
            for (i, p) in info.policies.iter().enumerate() {
                let default = if i == 0 { " (the default)" } else { "" };
                let line = format!("  {}{default}: {}", p.id, p.text);
                assert!(
                    help.contains(&line),
                    "chase {verb} {name} --help lacks `{line}`"
                );
            }
            let content = sys
                .get_arguments()
                .find(|a| a.get_id() == "content")
                .and_then(|a| a.get_help())
                .map(|h| h.to_string())
                .unwrap();
            assert_ne!(
                content, shared,
                "chase {verb} {name}: the shared --content text"
            );
            assert!(
                !content.contains("Call of Cthulhu") || name == "coc",
                "{name}: {content}"
            );
            assert!(
                texts.insert(content.clone()),
                "chase {verb} {name}: {content} again"
            );
        }
    }
}

/// `chase table --json` and `chase play --json` print what `--format json` printed; `chase table --format`
/// still works for one release and says so.
#[test]
fn chase_table_and_play_take_json() {
    let new = blockprint(&["chase", "table", "urban-world", "--json"]);
    ok(&new);
    assert_eq!(stderr(&new), "");
    let old = blockprint(&["chase", "table", "urban-world", "--format", "json"]);
    ok(&old);
    assert_eq!(old.stdout, new.stdout);
    assert_eq!(
        stderr(&old),
        "warning: --format json is deprecated; use --json\n"
    );
    let md = blockprint(&["chase", "table", "urban-world", "--format", "md"]);
    ok(&md);
    assert_eq!(
        md.stdout,
        blockprint(&["chase", "table", "urban-world"]).stdout
    );
    let v: serde_json::Value = serde_json::from_slice(&new.stdout).unwrap();
    assert_eq!(v["system"], "urban-world");
    let both = blockprint(&[
        "chase",
        "table",
        "urban-world",
        "--json",
        "--format",
        "json",
    ]);
    assert_eq!(both.status.code(), Some(2));
    let play = blockprint(&["chase", "play", "urban-world", "--seed", "4", "--json"]);
    ok(&play);
    let old = blockprint(&[
        "chase",
        "play",
        "urban-world",
        "--seed",
        "4",
        "--format",
        "json",
    ]);
    assert_eq!(play.stdout, old.stdout);
    let v: serde_json::Value = serde_json::from_slice(&play.stdout).unwrap();
    assert_eq!(v["seed"], 4);
    let help = stdout(&blockprint(&["chase", "table", "urban-world", "--help"]));
    assert!(help.contains("      --json "), "{help}");
    assert!(!help.contains("--format"), "{help}");
}
